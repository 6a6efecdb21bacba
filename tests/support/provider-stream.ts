import { expect } from "vitest";
import type { ProviderError } from "../../src/providers/provider-error.js";
import type {
  ChatRequest,
  LLMResponse,
  Message,
  ProviderEvent,
  ProviderFailure,
  ToolCallStart,
} from "../../src/providers/types.js";
import type { ToolSchema } from "../../src/shared/tool-schema.js";

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

/** A request of `messages` (one "hi" from the person by default) offering no tools unless `extra` says so. */
export function chatRequest(
  messages: Message[] = [{ role: "user", content: "hi" }],
  extra: Partial<ChatRequest> = {},
): ChatRequest {
  return { messages, tools: [], ...extra };
}

/** A tool to offer: looks a word up. */
export const LOOKUP_TOOL: ToolSchema = {
  type: "function",
  function: {
    name: "lookup",
    description: "Looks a word up.",
    parameters: { type: "object", properties: { word: { type: "string" } }, required: ["word"] },
  },
};

/** A tool to offer: the weather of a place. */
export const WEATHER_TOOL: ToolSchema = {
  type: "function",
  function: {
    name: "weather",
    description: "The weather of a place",
    parameters: { type: "object", properties: { place: { type: "string" } } },
  },
};

/** Every event of one stream, in order, as short lines (the done or error event last, as itself). */
export async function eventLines(
  events: AsyncIterable<ProviderEvent>,
): Promise<{ seen: string[]; last: ProviderEvent }> {
  const seen: string[] = [];
  let last: ProviderEvent | undefined;
  for await (const event of events) {
    last = event;
    if (event.type === "text_delta" || event.type === "reasoning_delta" || event.type === "notice") {
      seen.push(`${event.type} ${event.text}`);
    } else if (event.type === "tool_call_start") {
      seen.push(`tool_call_start ${event.call.index} ${event.call.name}`);
    }
  }
  return { seen, last: last! };
}

/** The failure an ending event carries; fails the test when it is not an error. */
export function errorOf(event: ProviderEvent): ProviderError {
  expect(event.type).toBe("error");
  return (event as { error: ProviderError }).error;
}
