import type { LLMResponse, ProviderEvent, ProviderFailure, ToolCallStart } from "../../src/providers/types.js";

/** What one request's stream yielded, gathered: its deltas and tool-call starts in order, and how it ended. */
export interface StreamRecord {
  events: ProviderEvent[];
  text: string[];
  reasoning: string[];
  starts: ToolCallStart[];
  response?: LLMResponse;
  error?: ProviderFailure;
}

/** Reads a stream to its end; throws when it breaks its contract (events after the end, no end at all). */
export async function collect(stream: AsyncIterable<ProviderEvent>): Promise<StreamRecord> {
  const record: StreamRecord = { events: [], text: [], reasoning: [], starts: [] };
  for await (const event of stream) {
    if (record.response || record.error) throw new Error(`An event after the end of the stream: ${event.type}`);
    record.events.push(event);
    if (event.type === "text_delta") record.text.push(event.text);
    else if (event.type === "reasoning_delta") record.reasoning.push(event.text);
    else if (event.type === "tool_call_start") record.starts.push(event.call);
    else if (event.type === "done") record.response = event.response;
    else if (event.type === "error") record.error = event.error;
  }
  if (!record.response && !record.error) throw new Error("The stream ended without done or error.");
  return record;
}

/** The failure a stream must end with. */
export async function failureOf(stream: AsyncIterable<ProviderEvent>): Promise<ProviderFailure> {
  const { error, response } = await collect(stream);
  if (!error) throw new Error(`The stream answered instead of failing: ${JSON.stringify(response)}`);
  return error;
}
