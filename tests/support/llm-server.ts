import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** Token usage as the server reports it; `cached` as OpenAI's `prompt_tokens_details.cached_tokens`. */
interface Usage {
  prompt: number;
  completion: number;
  cached?: number;
}

/** One scripted answer of the fake OpenAI-compatible endpoint. */
export type ScriptedReply =
  | {
      text: string;
      chunkSize?: number;
      usage?: Usage;
      model?: string;
      delayMs?: number;
      /** Called right after each text chunk is written (latency benchmarks). */
      onChunk?: (part: string) => void;
      /** Streamed before the text, in chunks of `chunkSize`. */
      reasoning?: Reasoning;
    }
  | {
      toolCalls: Array<{ name: string; arguments: string | Record<string, unknown>; id?: string }>;
      text?: string;
      /** Split each call's arguments into fragments of this many characters. */
      fragmentSize?: number;
      usage?: Usage;
      /** Streamed before anything else, in chunks of 5 characters. */
      reasoning?: Reasoning;
      /** Wait this long before the calls (a model thinking). */
      delayMs?: number;
      /** After each call's first fragment (id and name), wait for this before streaming its arguments. */
      holdArguments?: Promise<unknown>;
    }
  | { status: number; body?: unknown; headers?: Record<string, string> }
  /** Exact SSE bytes (conformance recordings). */
  | { rawSse: string }
  /** Streams `text` in chunks, then destroys the socket after `afterChunks` chunks. */
  | { cut: { text: string; afterChunks: number } }
  /** Streams `text` ("" for none) as one chunk, then says nothing more until the client hangs up. */
  | { stall: { text: string } }
  /** Accepts the request and never answers (for timeouts). */
  | { hang: true };

/** Reasoning text and its delta field: DeepSeek/Groq `reasoning_content` (default) or OpenRouter `reasoning`. */
export type Reasoning = string | { text: string; field: "reasoning_content" | "reasoning" };

export type Script = ScriptedReply | ((request: RecordedRequest, index: number) => ScriptedReply);

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage["headers"];
  body: {
    model: string;
    messages: Array<{
      role: string;
      content: string | null;
      tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
      tool_call_id?: string;
    }>;
    tools?: Array<{ function: { name: string; description?: string; parameters: Record<string, unknown> } }>;
    stream?: boolean;
    stream_options?: unknown;
  };
}

/** What the user wrote, without the `<context>` note Marvin sends in front of a user message. */
export function userWords(content: string | null): string | null {
  return content?.replace(/^<context>\n[\s\S]*?\n<\/context>\n\n/, "") ?? null;
}

/** The `<context>` note of a user message as sent, or undefined. */
export function contextNoteOf(content: string | null): string | undefined {
  return /^<context>\n[\s\S]*?\n<\/context>/.exec(content ?? "")?.[0];
}

export interface LlmServer {
  /** Base URL (…/v1) to use as OPENAI_COMPAT_URL. */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

let sequence = 0;

function sseData(model: string, fields: Record<string, unknown>): string {
  const envelope = { id: `chatcmpl-test${sequence}`, object: "chat.completion.chunk", created: 1_700_000_000, model };
  return `data: ${JSON.stringify({ ...envelope, ...fields })}\n\n`;
}

function chunk(model: string, delta: Record<string, unknown>, finishReason: string | null = null): string {
  return sseData(model, { choices: [{ index: 0, delta, finish_reason: finishReason }] });
}

function usageChunk(model: string, usage: Usage): string {
  const { prompt, completion, cached } = usage;
  const details = cached === undefined ? {} : { prompt_tokens_details: { cached_tokens: cached } };
  return sseData(model, {
    choices: [],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, ...details },
  });
}

function pieces(text: string, size: number): string[] {
  const result: string[] = [];
  for (let index = 0; index < text.length; index += size) result.push(text.slice(index, index + size));
  return result;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function sseHeaders(response: ServerResponse): void {
  response.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
}

async function answer(reply: ScriptedReply, request: RecordedRequest, response: ServerResponse): Promise<void> {
  sequence += 1;
  const model = request.body.model;
  if ("hang" in reply) return;
  if ("status" in reply) {
    response.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
    response.end(
      JSON.stringify(reply.body ?? { error: { message: `scripted HTTP ${reply.status}`, type: "test_error" } }),
    );
    return;
  }
  if ("rawSse" in reply) {
    sseHeaders(response);
    response.end(reply.rawSse);
    return;
  }
  if ("cut" in reply) {
    sseHeaders(response);
    const parts = pieces(reply.cut.text, 4);
    for (const part of parts.slice(0, reply.cut.afterChunks)) response.write(chunk(model, { content: part }));
    await sleep(20);
    response.socket?.destroy();
    return;
  }
  sseHeaders(response);
  if ("stall" in reply) {
    response.write(chunk(model, { role: "assistant", content: reply.stall.text }));
    return;
  }
  response.write(chunk(model, { role: "assistant", content: "" }));
  if (reply.reasoning) {
    const { text, field } =
      typeof reply.reasoning === "string" ? { text: reply.reasoning, field: "reasoning_content" } : reply.reasoning;
    const size = ("chunkSize" in reply && reply.chunkSize) || 5;
    for (const part of pieces(text, size)) response.write(chunk(model, { [field]: part }));
  }
  if ("toolCalls" in reply) {
    if (reply.delayMs) await sleep(reply.delayMs);
    if (reply.text) response.write(chunk(model, { content: reply.text }));
    for (const [index, call] of reply.toolCalls.entries()) {
      const args = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
      const id = call.id ?? `call_${sequence}_${index}`;
      response.write(
        chunk(model, { tool_calls: [{ index, id, type: "function", function: { name: call.name, arguments: "" } }] }),
      );
      if (reply.holdArguments) await reply.holdArguments;
      for (const fragment of pieces(args, reply.fragmentSize ?? 7)) {
        response.write(chunk(model, { tool_calls: [{ index, function: { arguments: fragment } }] }));
      }
    }
    response.write(chunk(model, {}, "tool_calls"));
    if (reply.usage) response.write(usageChunk(model, reply.usage));
  } else {
    for (const part of pieces(reply.text, reply.chunkSize ?? 5)) {
      response.write(chunk(reply.model ?? model, { content: part }));
      reply.onChunk?.(part);
      if (reply.delayMs) await sleep(reply.delayMs);
    }
    response.write(chunk(model, {}, "stop"));
    if (reply.usage) response.write(usageChunk(model, reply.usage));
  }
  response.end("data: [DONE]\n\n");
}

/**
 * The models `GET /v1/models` lists, as OpenRouter answers: one with its context window and a price Marvin knows,
 * one Marvin has no price for.
 */
export const SCRIPTED_MODELS = [
  { id: "gpt-4o-mini", object: "model", created: 1_700_000_000, owned_by: "openai", context_length: 128_000 },
  { id: "house-model-7b", object: "model", created: 1_700_000_000, owned_by: "scripted" },
];

/**
 * A real HTTP server on 127.0.0.1 speaking the chat-completions SSE protocol, answering
 * each POST with the next scripted reply, and `GET …/models` with SCRIPTED_MODELS (not recorded). It records
 * every other request and shuts itself down after `lifetimeMs` even if a test forgets to close it.
 */
export async function startLlmServer(script: Script[], lifetimeMs = 120_000): Promise<LlmServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((incoming, response) => {
    let raw = "";
    incoming.setEncoding("utf8");
    incoming.on("data", (data: string) => (raw += data));
    incoming.on("end", () => {
      if (incoming.method === "GET" && /\/models$/.test(incoming.url ?? "")) {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ object: "list", data: SCRIPTED_MODELS }));
        return;
      }
      const request: RecordedRequest = {
        path: incoming.url ?? "",
        headers: incoming.headers,
        body: raw ? JSON.parse(raw) : {},
      };
      requests.push(request);
      const index = requests.length - 1;
      const entry = script[index];
      if (entry === undefined) {
        response.writeHead(500, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: { message: `test script exhausted at request ${index + 1}` } }));
        return;
      }
      const reply = typeof entry === "function" ? entry(request, index) : entry;
      answer(reply, request, response).catch(() => response.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const timer = setTimeout(() => server.close(), lifetimeMs);
  timer.unref();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
