import { type LocalHttpServer, sendJson, startLocalHttpServer } from "./local-http-server.js";

/**
 * One scripted answer of Ollama's `/api/chat`: the lines of its newline-delimited JSON stream (each sent as
 * it is, with a short pause between them), or an HTTP error with Ollama's `{"error": "…"}` body.
 */
export type OllamaReply = { lines: unknown[] } | { status: number; error: string };

/** What `/api/show` answers: the model's architecture and window, and what it can do. */
export interface OllamaModel {
  architecture?: string;
  contextLength?: number;
  capabilities?: string[];
  /** An HTTP error instead, as for a model that is not pulled. */
  status?: number;
}

export interface OllamaServer extends LocalHttpServer {
  /** The `/api/chat` bodies Marvin sent, parsed. */
  chats(): OllamaChatBody[];
  /** How many times each path was asked for. */
  count(path: string): number;
}

/** The parts of an `/api/chat` request the tests look at. */
export interface OllamaChatBody {
  model: string;
  stream: boolean;
  think?: boolean | string;
  options?: { num_ctx?: number };
  tools?: Array<{ function: { name: string } }>;
  messages: Array<{
    role: string;
    content: string;
    tool_calls?: Array<{ function: { name: string; arguments: Record<string, unknown> } }>;
    tool_name?: string;
  }>;
}

/** A line of an answer. */
export function ollamaLine(message: Record<string, unknown>, extra: Record<string, unknown> = {}): unknown {
  return {
    model: "llama-test",
    created_at: "2026-11-26T12:00:00Z",
    message: { role: "assistant", content: "", ...message },
    done: false,
    ...extra,
  };
}

/** The last line of an answer, with its counts. */
export function ollamaDone(doneReason = "stop", promptEvalCount = 20, evalCount = 5): unknown {
  return {
    model: "llama-test",
    created_at: "2026-11-26T12:00:01Z",
    message: { role: "assistant", content: "" },
    done: true,
    done_reason: doneReason,
    total_duration: 1_000_000,
    prompt_eval_count: promptEvalCount,
    eval_count: evalCount,
  };
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

/**
 * A real HTTP server on 127.0.0.1 speaking Ollama's own API: `/api/tags` listing `pulled`, `/api/show` for `model`,
 * and `/api/chat` answered with the next scripted reply.
 */
export async function startOllamaServer(
  script: OllamaReply[],
  model: OllamaModel = {},
  pulled: string[] = [],
): Promise<OllamaServer> {
  let chats = 0;
  const server = await startLocalHttpServer(async (request, response) => {
    const path = request.url;
    if (path === "/api/tags") {
      const models = pulled.map((name) => ({
        name,
        model: name,
        modified_at: "2026-11-26T12:00:00Z",
        size: 4_920_753_328,
        digest: "a2af6cc3eb7fa8be8504abaf9b04e88f17a119ec3f04a3addf55f92841195f5a",
        details: { format: "gguf", family: "llama", families: ["llama"], parameter_size: "8.0B" },
      }));
      return sendJson(response, { models });
    }
    if (path === "/api/show") {
      if (model.status)
        return sendJson(response, { error: `model "${JSON.parse(request.body).model}" not found` }, model.status);
      const architecture = model.architecture ?? "llama";
      return sendJson(response, {
        details: { family: architecture },
        model_info: {
          "general.architecture": architecture,
          [`${architecture}.context_length`]: model.contextLength ?? 131_072,
          [`${architecture}.embedding_length`]: 4096,
        },
        capabilities: model.capabilities ?? ["completion", "tools"],
      });
    }
    if (path !== "/api/chat") return sendJson(response, { error: "404 page not found" }, 404);
    const reply = script[chats++];
    if (!reply) return sendJson(response, { error: `script exhausted at chat ${chats}` }, 500);
    if ("status" in reply) return sendJson(response, { error: reply.error }, reply.status);
    response.writeHead(200, { "content-type": "application/x-ndjson" });
    for (const line of reply.lines) {
      response.write(`${JSON.stringify(line)}\n`);
      await pause();
    }
    response.end();
  });
  return Object.assign(server, {
    chats: () =>
      server.requests
        .filter((request) => request.url === "/api/chat")
        .map((request) => JSON.parse(request.body) as OllamaChatBody),
    count: (path: string) => server.requests.filter((request) => request.url === path).length,
  });
}
