import type { ServerResponse } from "node:http";
import { type Ending, pieces, streamEventsTo, type WireEvent } from "./event-stream-server.js";
import { type LocalHttpServer, type SeenRequest, startLocalHttpServer } from "./local-http-server.js";

/*
 * A scripted Anthropic Messages API (`POST /v1/messages`, `stream: true`) on 127.0.0.1, speaking its wire format
 * as Anthropic's "Streaming Messages" page shows it: named server-sent events, a `ping` after the first block
 * starts, `content_block_stop` after every block, tool input as `input_json_delta` fragments (the first one
 * empty), thinking as `thinking_delta`s closed by a `signature_delta`, usage in `message_start` and
 * `message_delta`. The bytes go out in small slices that cut events and lines anywhere.
 */

interface Usage {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** What one scripted answer holds, in the order Claude sends it: thinking, text, then tool calls. */
export interface MessageScript {
  thinking?: { text: string; signature: string };
  redactedThinking?: string;
  text?: string;
  toolCalls?: Array<{ id: string; name: string; input: Record<string, unknown> }>;
  usage?: Usage;
  stopReason?: string;
  model?: string;
}

export type AnthropicReply =
  | { message: MessageScript }
  /** Exactly these events, then the body ends, the connection drops, or the server goes silent until hung up on. */
  | { events: WireEvent[]; ending?: Ending }
  | { status: number; body: unknown; headers?: Record<string, string> };

export interface AnthropicRequest {
  headers: SeenRequest["headers"];
  /** The JSON body, as sent. */
  body: {
    model: string;
    max_tokens: number;
    stream: boolean;
    system?: Array<{ type: string; text: string; cache_control?: unknown }>;
    messages: Array<{ role: string; content: Array<Record<string, unknown>> }>;
    tools?: Array<{ name: string; description: string; input_schema: unknown; cache_control?: unknown }>;
    thinking?: Record<string, unknown>;
    output_config?: Record<string, unknown>;
  };
}

export interface AnthropicServer {
  /** The server root, as ANTHROPIC_BASE_URL. */
  url: string;
  requests: AnthropicRequest[];
  close(): Promise<void>;
}

function blockEvents(index: number, start: Record<string, unknown>, deltas: Array<Record<string, unknown>>) {
  return [
    { type: "content_block_start", index, content_block: start },
    ...deltas.map((delta) => ({ type: "content_block_delta", index, delta })),
    { type: "content_block_stop", index },
  ];
}

/** The events of a whole streamed message. */
export function messageEvents(script: MessageScript, requestedModel = "claude-test"): WireEvent[] {
  const usage = script.usage ?? { input: 10, output: 5 };
  const model = script.model ?? requestedModel;
  const blocks: WireEvent[][] = [];
  if (script.thinking) {
    const { text, signature } = script.thinking;
    blocks.push(
      blockEvents(blocks.length, { type: "thinking", thinking: "", signature: "" }, [
        ...pieces(text, 12).map((part) => ({ type: "thinking_delta", thinking: part })),
        { type: "signature_delta", signature },
      ]),
    );
  }
  if (script.redactedThinking) {
    blocks.push(blockEvents(blocks.length, { type: "redacted_thinking", data: script.redactedThinking }, []));
  }
  if (script.text) {
    const deltas = pieces(script.text, 7).map((part) => ({ type: "text_delta", text: part }));
    blocks.push(blockEvents(blocks.length, { type: "text", text: "" }, deltas));
  }
  for (const call of script.toolCalls ?? []) {
    const json = JSON.stringify(call.input);
    const deltas = ["", ...pieces(json, 5)].map((part) => ({ type: "input_json_delta", partial_json: part }));
    blocks.push(blockEvents(blocks.length, { type: "tool_use", id: call.id, name: call.name, input: {} }, deltas));
  }
  const [first = [], ...rest] = blocks;
  const startUsage = {
    input_tokens: usage.input,
    cache_creation_input_tokens: usage.cacheWrite ?? 0,
    cache_read_input_tokens: usage.cacheRead ?? 0,
    output_tokens: 1,
  };
  return [
    {
      type: "message_start",
      message: {
        id: "msg_01TestMessage",
        type: "message",
        role: "assistant",
        content: [],
        model,
        stop_reason: null,
        stop_sequence: null,
        usage: startUsage,
      },
    },
    ...first.slice(0, 1),
    { type: "ping" },
    ...first.slice(1),
    ...rest.flat(),
    {
      type: "message_delta",
      delta: {
        stop_reason: script.stopReason ?? (script.toolCalls?.length ? "tool_use" : "end_turn"),
        stop_sequence: null,
      },
      usage: { output_tokens: usage.output },
    },
    { type: "message_stop" },
  ];
}

/** An `error` event, as Anthropic sends one mid-stream (`overloaded_error` when it is busy). */
export function errorEvent(type: string, message: string): WireEvent {
  return { type: "error", error: { type, message } };
}

async function answer(reply: AnthropicReply, model: string, response: ServerResponse): Promise<void> {
  if ("status" in reply) {
    response.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
    response.end(JSON.stringify(reply.body));
    return;
  }
  if ("message" in reply) await streamEventsTo(response, messageEvents(reply.message, model));
  else await streamEventsTo(response, reply.events, reply.ending);
}

/** Starts the server; request `i` gets `script[i]` (the last one again when the script runs out). */
export async function startAnthropicServer(script: AnthropicReply[]): Promise<AnthropicServer> {
  const requests: AnthropicRequest[] = [];
  const server: LocalHttpServer = await startLocalHttpServer(async (request, response, index) => {
    const body = JSON.parse(request.body) as AnthropicRequest["body"];
    requests.push({ headers: request.headers, body });
    if (request.method !== "POST" || request.url !== "/v1/messages") {
      response.writeHead(404, { "content-type": "application/json" });
      response.end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: "Not found" } }));
      return;
    }
    await answer(script[Math.min(index, script.length - 1)]!, body.model, response);
  });
  return { url: server.origin, requests, close: () => server.close() };
}
