import type { ServerResponse } from "node:http";
import { type Ending, pieces, streamEventsTo, type WireEvent } from "./event-stream-server.js";
import { type LocalHttpServer, type SeenRequest, startLocalHttpServer } from "./local-http-server.js";

/*
 * A scripted OpenAI Responses API (`POST /v1/responses`, `stream: true`) on 127.0.0.1, speaking its wire format as
 * OpenAI's "Streaming events" reference shows it: named events with a `sequence_number`; `response.created` and
 * `response.in_progress` first; each output item opened by `response.output_item.added` and closed by
 * `response.output_item.done` (which carries the whole item: a reasoning item's summary and `encrypted_content`, a
 * call's final arguments); reasoning summaries as `response.reasoning_summary_text.delta` inside summary parts;
 * text inside a content part; function-call arguments as `response.function_call_arguments.delta` fragments then
 * `.done`; `response.completed` with the usage last. The bytes go out in small slices that cut events anywhere.
 */

interface Usage {
  input: number;
  output: number;
  cached?: number;
}

/** What one scripted response holds, in the order OpenAI sends it: reasoning, text, then function calls. */
export interface ResponseScript {
  /** A reasoning item: its summary parts, and its encrypted content (absent: none was asked for). */
  reasoning?: { summary: string[]; encrypted?: string };
  text?: string;
  toolCalls?: Array<{ callId: string; name: string; arguments: Record<string, unknown> }>;
  usage?: Usage;
  model?: string;
  /** Ends with `response.incomplete` for this reason instead of `response.completed`. */
  incomplete?: "max_output_tokens" | "content_filter";
}

export type ResponsesReply =
  | { response: ResponseScript }
  /** Exactly these events (sequence numbers added), then the body ends, the connection drops, or silence. */
  | { events: WireEvent[]; ending?: Ending }
  | { status: number; body: unknown; headers?: Record<string, string> };

export interface ResponsesRequest {
  headers: SeenRequest["headers"];
  /** The JSON body, as sent. */
  body: {
    model: string;
    instructions?: string;
    input: Array<Record<string, unknown>>;
    tools?: Array<Record<string, unknown>>;
    stream: boolean;
    store: boolean;
    include?: string[];
    reasoning?: { effort?: string; summary?: string };
    prompt_cache_key?: string;
  };
}

export interface ResponsesServer {
  /** The API's base URL, as OPENAI_BASE_URL (…/v1). */
  url: string;
  requests: ResponsesRequest[];
  close(): Promise<void>;
}

/** The response object of `response.created`, `.completed`, `.incomplete` and `.failed`. */
function responseObject(model: string, fields: Record<string, unknown>): Record<string, unknown> {
  return {
    id: "resp_0test",
    object: "response",
    created_at: 1_760_000_000,
    status: "in_progress",
    error: null,
    incomplete_details: null,
    model,
    output: [],
    store: false,
    usage: null,
    ...fields,
  };
}

function reasoningEvents(index: number, reasoning: NonNullable<ResponseScript["reasoning"]>) {
  const id = `rs_0test${index}`;
  const at = { item_id: id, output_index: index };
  const summary = reasoning.summary.map((text) => ({ type: "summary_text", text }));
  const encrypted = reasoning.encrypted === undefined ? {} : { encrypted_content: reasoning.encrypted };
  const item = { id, type: "reasoning", summary };
  return {
    events: [
      { type: "response.output_item.added", output_index: index, item: { ...item, summary: [] } },
      ...summary.flatMap((part, summaryIndex) => [
        {
          type: "response.reasoning_summary_part.added",
          ...at,
          summary_index: summaryIndex,
          part: { ...part, text: "" },
        },
        ...pieces(part.text, 9).map((delta) => ({
          type: "response.reasoning_summary_text.delta",
          ...at,
          summary_index: summaryIndex,
          delta,
        })),
        { type: "response.reasoning_summary_text.done", ...at, summary_index: summaryIndex, text: part.text },
        { type: "response.reasoning_summary_part.done", ...at, summary_index: summaryIndex, part },
      ]),
      { type: "response.output_item.done", output_index: index, item: { ...item, ...encrypted } },
    ],
    item: { ...item, ...encrypted },
  };
}

function messageEvents(index: number, text: string) {
  const id = `msg_0test${index}`;
  const at = { item_id: id, output_index: index, content_index: 0 };
  const part = { type: "output_text", annotations: [], logprobs: [], text };
  const item = { id, type: "message", status: "completed", role: "assistant", content: [part] };
  return {
    events: [
      {
        type: "response.output_item.added",
        output_index: index,
        item: { ...item, status: "in_progress", content: [] },
      },
      { type: "response.content_part.added", ...at, part: { ...part, text: "" } },
      ...pieces(text, 7).map((delta) => ({ type: "response.output_text.delta", ...at, delta, logprobs: [] })),
      { type: "response.output_text.done", ...at, text, logprobs: [] },
      { type: "response.content_part.done", ...at, part },
      { type: "response.output_item.done", output_index: index, item },
    ],
    item,
  };
}

function callEvents(index: number, call: NonNullable<ResponseScript["toolCalls"]>[number]) {
  const id = `fc_0test${index}`;
  const args = JSON.stringify(call.arguments);
  const item = {
    id,
    type: "function_call",
    status: "completed",
    arguments: args,
    call_id: call.callId,
    name: call.name,
  };
  return {
    events: [
      {
        type: "response.output_item.added",
        output_index: index,
        item: { ...item, status: "in_progress", arguments: "" },
      },
      ...pieces(args, 5).map((delta) => ({
        type: "response.function_call_arguments.delta",
        item_id: id,
        output_index: index,
        delta,
      })),
      { type: "response.function_call_arguments.done", item_id: id, output_index: index, arguments: args },
      { type: "response.output_item.done", output_index: index, item },
    ],
    item,
  };
}

/** The events of a whole streamed response. */
export function responseEvents(script: ResponseScript, requestedModel = "gpt-test"): WireEvent[] {
  const model = script.model ?? requestedModel;
  const parts: Array<{ events: WireEvent[]; item: unknown }> = [];
  if (script.reasoning) parts.push(reasoningEvents(parts.length, script.reasoning));
  if (script.text) parts.push(messageEvents(parts.length, script.text));
  for (const call of script.toolCalls ?? []) parts.push(callEvents(parts.length, call));
  const usage = script.usage ?? { input: 10, output: 5 };
  const wireUsage = {
    input_tokens: usage.input,
    input_tokens_details: { cached_tokens: usage.cached ?? 0 },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.input + usage.output,
  };
  const output = parts.map((part) => part.item);
  const ending = script.incomplete
    ? {
        type: "response.incomplete",
        response: responseObject(model, {
          status: "incomplete",
          incomplete_details: { reason: script.incomplete },
          output,
          usage: wireUsage,
        }),
      }
    : {
        type: "response.completed",
        response: responseObject(model, { status: "completed", output, usage: wireUsage }),
      };
  return [
    { type: "response.created", response: responseObject(model, {}) },
    { type: "response.in_progress", response: responseObject(model, {}) },
    ...parts.flatMap((part) => part.events),
    ending,
  ];
}

/** A `response.failed` event, as OpenAI ends a response that failed after it started. */
export function failedEvent(code: string, message: string, model = "gpt-test"): WireEvent {
  return { type: "response.failed", response: responseObject(model, { status: "failed", error: { code, message } }) };
}

/** An `error` event, as OpenAI sends one in place of the rest of the stream. */
export function errorEvent(code: string, message: string): WireEvent {
  return { type: "error", code, message, param: null };
}

/** Every event numbered in order, as the API numbers them. */
function numbered(events: WireEvent[]): WireEvent[] {
  return events.map((event, sequence) => ({ ...event, sequence_number: sequence }));
}

async function answer(reply: ResponsesReply, model: string, response: ServerResponse): Promise<void> {
  if ("status" in reply) {
    response.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
    response.end(JSON.stringify(reply.body));
    return;
  }
  if ("response" in reply) await streamEventsTo(response, numbered(responseEvents(reply.response, model)));
  else await streamEventsTo(response, numbered(reply.events), reply.ending);
}

/** Starts the server; request `i` gets `script[i]` (the last one again when the script runs out). */
export async function startResponsesServer(script: ResponsesReply[]): Promise<ResponsesServer> {
  const requests: ResponsesRequest[] = [];
  const server: LocalHttpServer = await startLocalHttpServer(async (request, response, index) => {
    const body = JSON.parse(request.body) as ResponsesRequest["body"];
    requests.push({ headers: request.headers, body });
    if (request.method !== "POST" || request.url !== "/v1/responses") {
      response.writeHead(404, { "content-type": "application/json" });
      const error = { message: `Invalid URL (${request.method} ${request.url})`, type: "invalid_request_error" };
      response.end(JSON.stringify({ error: { ...error, param: null, code: null } }));
      return;
    }
    await answer(script[Math.min(index, script.length - 1)]!, body.model, response);
  });
  return { url: `${server.origin}/v1`, requests, close: () => server.close() };
}
