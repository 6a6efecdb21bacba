import { type LocalHttpServer, sendJson, startLocalHttpServer } from "./local-http-server.js";

/**
 * One scripted answer of the Gemini API: the `GenerateContentResponse` chunks of a streamGenerateContent
 * stream, sent as server-sent events (`data: {…}` lines ended by CRLF pairs, as Google sends them); or an
 * HTTP error with Google's error body.
 */
export type GeminiReply =
  /** `stall`: the stream stays open after the chunks, sending nothing more (for time limits and cancels). */
  { chunks: unknown[]; stall?: boolean } | { status: number; body: unknown; headers?: Record<string, string> };

export interface GeminiServer extends LocalHttpServer {
  /** What Marvin sent, parsed: one body per request. */
  bodies(): GeminiRequestBody[];
}

/** The parts of a generateContent request the tests look at. */
export interface GeminiRequestBody {
  contents: Array<{ role: string; parts: Array<Record<string, unknown>> }>;
  systemInstruction?: { parts: Array<{ text: string }> };
  tools?: Array<{ functionDeclarations: Array<{ name: string; parameters?: Record<string, unknown> }> }>;
  generationConfig?: { thinkingConfig?: Record<string, unknown> };
}

/** A text part of a model answer, for scripts. */
export function modelChunk(parts: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { candidates: [{ content: { role: "model", parts }, index: 0, ...extra }], modelVersion: "gemini-test" };
}

/** The last chunk of an answer: its finish reason and usage. */
export function finishChunk(
  finishReason: string,
  usage: Record<string, number> = { promptTokenCount: 10, candidatesTokenCount: 5 },
  parts: unknown[] = [],
): Record<string, unknown> {
  return {
    candidates: [{ content: { role: "model", parts }, finishReason, index: 0 }],
    usageMetadata: { ...usage, totalTokenCount: Object.values(usage).reduce((sum, count) => sum + count, 0) },
    modelVersion: "gemini-test",
  };
}

/** A real HTTP server on 127.0.0.1 answering each streamGenerateContent request with the next scripted reply. */
export async function startGeminiServer(script: GeminiReply[]): Promise<GeminiServer> {
  const server = await startLocalHttpServer((_request, response, index) => {
    const reply = script[index];
    if (!reply) {
      sendJson(response, { error: { code: 500, message: `script exhausted at request ${index + 1}` } }, 500);
    } else if ("status" in reply) {
      sendJson(response, reply.body, reply.status, reply.headers);
    } else {
      response.writeHead(200, { "content-type": "text/event-stream" });
      const events = reply.chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join("");
      if (reply.stall) response.write(events);
      else response.end(events);
    }
  });
  return Object.assign(server, {
    bodies: () => server.requests.map((request) => JSON.parse(request.body) as GeminiRequestBody),
  });
}
