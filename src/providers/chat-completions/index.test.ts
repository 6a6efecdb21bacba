import { test as base, describe, expect } from "../../../tests/support/fixtures.js";
import type { LlmServer, Script } from "../../../tests/support/llm-server.js";
import { collect } from "../../../tests/support/provider-stream.js";
import { scriptedConfig } from "../../../tests/support/test-session.js";
import type { Env } from "../../shared/env.js";
import { finalAnswer } from "../final-answer.js";
import { ProviderError } from "../provider-error.js";
import type { ChatRequest, LLMResponse, ProviderEvent, ProviderFailure } from "../types.js";
import { ChatCompletionsProvider } from "./index.js";

interface ScriptedProvider {
  chat: ChatCompletionsProvider;
  server: LlmServer;
}

/** `provider(script, env)`: the adapter talking to a scripted server started for this test. */
const test = base.extend<{ provider: (script: Script[], env?: Env) => Promise<ScriptedProvider> }>({
  provider: async ({ llm, home }, use) =>
    use(async (script, env = {}) => {
      const server = await llm(script);
      return { chat: new ChatCompletionsProvider(scriptedConfig(server.url, home, env)), server };
    }),
});

function request(): ChatRequest {
  return { messages: [{ role: "user", content: "hi" }], tools: [] };
}

/** The failure `stream` ends with; `deltas` receives the text it yielded first. */
async function failure(stream: AsyncIterable<ProviderEvent>, deltas: string[] = []): Promise<ProviderFailure> {
  const { text, error } = await collect(stream);
  deltas.push(...text);
  expect(error).toBeInstanceOf(ProviderError);
  return error!;
}

/** The answer `stream` ends with; `deltas` receives the text it yielded. */
async function answer(stream: AsyncIterable<ProviderEvent>, deltas: string[] = []): Promise<LLMResponse> {
  const { text, response, error } = await collect(stream);
  deltas.push(...text);
  expect(error).toBeUndefined();
  return response!;
}

describe("timeouts: the adapter never hangs", () => {
  // The server stays silent until the client hangs up, so only the idle limit can end the request; the message says
  // which limit fired, and the loose time bound only shows the 180 s whole-request limit played no part.
  test("cancels a stream that goes silent for longer than the idle limit, keeping what arrived", async ({
    provider,
  }) => {
    const { chat, server } = await provider([{ stall: { text: "first words," } }], {
      MARVIN_STREAM_IDLE_TIMEOUT: "0.2",
    });
    const deltas: string[] = [];
    const started = Date.now();
    const error = await failure(chat.stream(request()), deltas);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(deltas).toEqual(["first words,"]);
    expect(error).toMatchObject({ kind: "timeout", partialOutput: true });
    expect(error.message).toBe(`openai-compat sent nothing for 0.2s (${server.url}); the request was cancelled.`);
  });

  test("counts waiting for the first byte as silence too", async ({ provider }) => {
    const { chat } = await provider([{ hang: true }], { MARVIN_STREAM_IDLE_TIMEOUT: "0.2" });
    const error = await failure(chat.stream(request()));
    expect(error).toMatchObject({ kind: "timeout", partialOutput: false });
    expect(error.message).toContain("sent nothing for 0.2s");
  });

  test("cancels a request that streams steadily but exceeds the whole-request limit", async ({ provider }) => {
    const { chat, server } = await provider(
      [{ text: "a steady trickle of text that goes on", chunkSize: 2, delayMs: 50 }],
      {
        MARVIN_REQUEST_TIMEOUT: "0.3",
        MARVIN_STREAM_IDLE_TIMEOUT: "5",
      },
    );
    const deltas: string[] = [];
    const error = await failure(chat.stream(request()), deltas);
    expect(error.kind).toBe("timeout");
    expect(error.message).toBe(`openai-compat did not finish within 0.3s (${server.url}); the request was cancelled.`);
    expect(deltas.length).toBeGreaterThan(0);
  });
});

describe("cancelling", () => {
  test("reports a cancel mid-stream as cancelled, not as a cut stream", async ({ provider }) => {
    const { chat } = await provider([{ text: "a slow answer that the user stops", chunkSize: 6, delayMs: 100 }]);
    const controller = new AbortController();
    const deltas: string[] = [];
    setTimeout(() => controller.abort(), 150);
    const error = await failure(chat.stream({ ...request(), signal: controller.signal }), deltas);
    expect(error).toMatchObject({ kind: "aborted", partialOutput: true, message: "Request cancelled." });
    expect(deltas.length).toBeGreaterThan(0);
  });
});

describe("HTTP errors become actionable messages", () => {
  test("names the key variable on 401/403", async ({ provider }) => {
    const { chat } = await provider([{ status: 403, body: { error: { message: "Forbidden" } } }]);
    const error = await failure(chat.stream(request()));
    expect(error).toMatchObject({ kind: "auth", status: 403 });
    expect(error.message).toBe(
      "openai-compat refused the API key (HTTP 403): Forbidden. Check OPENAI_COMPAT_API_KEY (or ~/.ssh/" +
        "OPENAI_COMPAT_API_KEY).",
    );
  });

  test("names the model and URL on 404", async ({ provider }) => {
    const { chat, server } = await provider([{ status: 404, body: { error: { message: "model not found" } } }]);
    const error = await failure(chat.stream(request()));
    expect(error.message).toBe(
      `openai-compat answered HTTP 404 for model 'gpt-4o-mini' at ${server.url}: model not found. Check the model ` +
        `name and URL.`,
    );
  });

  test("reads Retry-After from a 429", async ({ provider }) => {
    const { chat } = await provider([{ status: 429, headers: { "retry-after": "7" } }]);
    expect(await failure(chat.stream(request()))).toMatchObject({ kind: "rate_limit", retryAfterSeconds: 7 });
  });

  test("says which URL could not be reached", async ({ home, llm }) => {
    const closed = await llm([]);
    const url = closed.url;
    await closed.close();
    const chat = new ChatCompletionsProvider(scriptedConfig(url, home));
    const error = await failure(chat.stream(request()));
    expect(error.kind).toBe("network");
    expect(error.message).toMatch(
      new RegExp(`^Cannot reach openai-compat at ${url.replace(/[.]/g, "\\.")}.*Check the URL and your network\\.$`),
    );
  });
});

describe("servers that reject stream_options", () => {
  test("asks again without it", async ({ provider }) => {
    const { chat, server } = await provider([
      { status: 400, body: { error: { message: "Unrecognized request argument: stream_options" } } },
      { text: "fine" },
    ]);
    expect((await answer(chat.stream(request()))).content).toBe("fine");
    expect(server.requests[0]!.body.stream_options).toEqual({ include_usage: true });
    expect(server.requests[1]!.body.stream_options).toBeUndefined();
  });
});

describe("servers that do not quite speak the streaming protocol", () => {
  test("accepts one JSON completion from a server that ignores stream: true", async ({ provider }) => {
    const completion = {
      id: "chatcmpl-1",
      object: "chat.completion",
      model: "local-model",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: "Checking.",
            tool_calls: [{ id: "call_9", type: "function", function: { name: "list_places", arguments: "{}" } }],
          },
          finish_reason: "tool_calls",
        },
      ],
      usage: { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 },
    };
    const { chat } = await provider([{ status: 200, body: completion }]);
    const deltas: string[] = [];
    const response = await answer(chat.stream(request()), deltas);
    expect(deltas.join("")).toBe("Checking.");
    expect(response).toMatchObject({
      content: "Checking.",
      finishReason: "tool_calls",
      model: "local-model",
      usage: { promptTokens: 12, completionTokens: 7 },
    });
    expect(response.toolCalls).toEqual([
      { id: "call_9", type: "function", function: { name: "list_places", arguments: "{}" } },
    ]);
  });

  test("says so when a 200 JSON body is not a chat completion", async ({ provider }) => {
    const { chat } = await provider([{ status: 200, body: { hello: "world" } }]);
    const error = await failure(chat.stream(request()));
    expect(error.kind).toBe("bad_request");
    expect(error.message).toMatch(
      /answered with JSON that is not a chat completion \(\{"hello":"world"\}\).*OpenAI-compatible/,
    );
  });

  test("reports malformed stream data as such, keeping the text before it", async ({ provider }) => {
    const chunk = {
      id: "x",
      object: "chat.completion.chunk",
      created: 1,
      model: "m",
      choices: [{ index: 0, delta: { content: "par" }, finish_reason: null }],
    };
    const { chat } = await provider([{ rawSse: `data: ${JSON.stringify(chunk)}\n\ndata: {not json\n\n` }]);
    const deltas: string[] = [];
    const error = await failure(chat.stream(request()), deltas);
    expect(deltas.join("")).toBe("par");
    expect(error.partialOutput).toBe(true);
    expect(error.message).toMatch(/sent stream data that is not valid JSON .*OpenAI-compatible endpoint\?/);
  });
});

/** Complete SSE bytes of these chunks. */
function sse(chunks: unknown[]): string {
  return `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join("")}data: [DONE]\n\n`;
}

describe("every stream chunk is checked before it is used", () => {
  test("reports a chunk of the wrong shape as a clear error naming the field, keeping the text before it", async ({
    provider,
  }) => {
    const good = { id: "x", model: "m", choices: [{ index: 0, delta: { content: "par" }, finish_reason: null }] };
    const bad = { ...good, choices: [{ index: 0, delta: { content: 42 }, finish_reason: null }] };
    const { chat } = await provider([{ rawSse: `data: ${JSON.stringify(good)}\n\ndata: ${JSON.stringify(bad)}\n\n` }]);
    const deltas: string[] = [];
    const error = await failure(chat.stream(request()), deltas);
    expect(deltas.join("")).toBe("par");
    expect(error).toMatchObject({ kind: "stream_cut", partialOutput: true });
    expect(error.message).toBe(
      "openai-compat sent a stream chunk Marvin does not understand: choices[0].delta.content: expected a string or " +
        `a list of content parts, received number (${JSON.stringify(bad)})`,
    );
  });

  test("reports tool calls that are not a list, instead of failing on them", async ({ provider }) => {
    const { chat } = await provider([
      { rawSse: sse([{ choices: [{ index: 0, delta: { tool_calls: { name: "read_file" } } }] }]) },
    ]);
    const error = await failure(chat.stream(request()));
    expect(error).toMatchObject({ kind: "stream_cut", partialOutput: false });
    expect(error.message).toContain(
      "does not understand: choices[0].delta.tool_calls: expected array, received object",
    );
  });

  test("tolerates odd metadata it can do without: a numeric model, usage with strings", async ({ provider }) => {
    const chunks = [
      { model: 7, choices: [{ index: 0, delta: { content: "fine" }, finish_reason: "stop" }] },
      { choices: [], usage: { prompt_tokens: "12", completion_tokens: 3 } },
    ];
    const { chat } = await provider([{ rawSse: sse(chunks) }]);
    const response = await answer(chat.stream(request()));
    expect(response).toMatchObject({ content: "fine", model: "gpt-4o-mini", finishReason: "stop" });
    expect(response.usage).toBeUndefined();
  });
});

describe("the stream reports more than text", () => {
  /** The stream's answer; `events` receives what it yielded before, as text. */
  async function listening(stream: AsyncIterable<ProviderEvent>, events: string[]): Promise<LLMResponse> {
    for await (const event of stream) {
      if (event.type === "text_delta") events.push(`text ${event.text}`);
      if (event.type === "reasoning_delta") events.push(`reasoning ${event.text}`);
      if (event.type === "tool_call_start") events.push(`tool ${event.call.index} ${event.call.id} ${event.call.name}`);
      if (event.type === "done") return event.response;
    }
    throw new Error("no answer");
  }

  test("passes reasoning_content deltas on as they arrive, before the answer", async ({ provider }) => {
    const { chat } = await provider([{ text: "42.", reasoning: "Think first." }]);
    const events: string[] = [];
    const response = await listening(chat.stream(request()), events);
    expect(events).toEqual(["reasoning Think", "reasoning  firs", "reasoning t.", "text 42."]);
    expect(response.reasoning).toBe("Think first.");
  });

  test("reads OpenRouter's `reasoning` field the same way", async ({ provider }) => {
    const { chat } = await provider([{ text: "ok", chunkSize: 20, reasoning: { text: "Hmm.", field: "reasoning" } }]);
    const events: string[] = [];
    await listening(chat.stream(request()), events);
    expect(events).toEqual(["reasoning Hmm.", "text ok"]);
  });

  test("names each tool call, with its id, while its arguments are still streaming", async ({ provider }) => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const calls = [
      { name: "read_file", id: "call_a", arguments: { path: "a.txt" } },
      { name: "tree", id: "call_b", arguments: {} },
    ];
    const { chat } = await provider([{ toolCalls: calls, holdArguments: held }], { MARVIN_STREAM_IDLE_TIMEOUT: "5" });
    const started: string[] = [];
    let response: LLMResponse | undefined;
    // The server sends the arguments only once the call has been announced: without the announcement this stalls.
    for await (const event of chat.stream(request())) {
      if (event.type === "tool_call_start") {
        started.push(`${event.call.index} ${event.call.id} ${event.call.name}`);
        release();
      }
      if (event.type === "done") response = event.response;
    }
    expect(started).toEqual(["0 call_a read_file", "1 call_b tree"]);
    expect(response!.toolCalls.map((call) => [call.id, call.function.name, call.function.arguments])).toEqual([
      ["call_a", "read_file", '{"path":"a.txt"}'],
      ["call_b", "tree", "{}"],
    ]);
  });

  test("announces a call whose id never comes when the stream finishes, under the id it keeps", async ({
    provider,
  }) => {
    const nameless = { index: 0, function: { name: "tree", arguments: "{}" } };
    const chunks = [
      { choices: [{ index: 0, delta: { tool_calls: [nameless] }, finish_reason: null }] },
      { choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
    ];
    const { chat } = await provider([{ rawSse: sse(chunks) }]);
    const events: string[] = [];
    const response = await listening(chat.stream(request()), events);
    expect(events).toEqual(["tool 0 call_0 tree"]);
    expect(response.toolCalls[0]!.id).toBe("call_0");
  });
});

describe("prompt caching", () => {
  test("sends OpenAI the conversation's cache key, and other servers nothing they may not know", async ({
    llm,
    home,
  }) => {
    const server = await llm([{ text: "a" }, { text: "b" }]);
    const config = scriptedConfig(server.url, home);
    await finalAnswer(
      new ChatCompletionsProvider({ ...config, name: "openai" }).stream({ ...request(), cacheKey: "conv-1" }),
    );
    await finalAnswer(new ChatCompletionsProvider(config).stream({ ...request(), cacheKey: "conv-1" }));
    const keys = server.requests.map((sent) => (sent.body as { prompt_cache_key?: string }).prompt_cache_key);
    expect(keys).toEqual(["conv-1", undefined]);
  });

  test("sends a user message's context note in front of the user's words", async ({ provider }) => {
    const { chat, server } = await provider([{ text: "ok" }]);
    await finalAnswer(
      chat.stream({ ...request(), messages: [{ role: "user", content: "hi", context: "<context>\nnow\n</context>" }] }),
    );
    expect(server.requests[0]!.body.messages).toEqual([{ role: "user", content: "<context>\nnow\n</context>\n\nhi" }]);
  });
  test("leaves out the replay data another provider kept with an answer (Claude's thinking signatures)", async ({
    provider,
  }) => {
    const { chat, server } = await provider([{ text: "ok" }]);
    const thinking = { model: "claude-sonnet-5-5", block: { type: "thinking", thinking: "hm", signature: "sig" } };
    await finalAnswer(
      chat.stream({
        ...request(),
        messages: [
          { role: "user", content: "hi" },
          { role: "assistant", content: "Hello.", replay: { provider: "anthropic", items: [thinking] } },
          { role: "user", content: "and now?" },
        ],
      }),
    );
    expect(server.requests[0]!.body.messages[1]).toEqual({ role: "assistant", content: "Hello." });
  });
});

describe("conversations too long for the model", () => {
  const bodies = {
    "OpenAI and Groq": {
      error: {
        message: "Please reduce the length of the messages or completion.",
        type: "invalid_request_error",
        param: "messages",
        code: "context_length_exceeded",
      },
    },
    vLLM: {
      object: "error",
      message:
        "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the " +
        "messages, 1000 in the completion). Please reduce the length of the messages or completion.",
      type: "BadRequestError",
      code: 400,
    },
    "llama.cpp": {
      error: {
        code: 400,
        message: "request (9412 tokens) exceeds the available context size (8192 tokens), try increasing it",
        type: "exceed_context_size_error",
        n_prompt_tokens: 9412,
        n_ctx: 8192,
      },
    },
  };

  test.for(Object.entries(bodies))("are told apart from other bad requests: %s", async ([, body], { provider }) => {
    const { chat } = await provider([{ status: 400, body }]);
    const error = await failure(chat.stream(request()));
    expect(error).toMatchObject({ kind: "context_overflow", status: 400 });
    expect(error.message).toMatch(/^The conversation is too long for gpt-4o-mini \(.+\)\. Compact the history/);
  });

  test("as an error in the stream too", async ({ provider }) => {
    const said = { error: { message: "maximum context length exceeded", code: "context_length_exceeded" } };
    const { chat } = await provider([{ rawSse: `data: ${JSON.stringify(said)}\n\n` }]);
    expect(await failure(chat.stream(request()))).toMatchObject({ kind: "context_overflow", partialOutput: false });
  });
});

describe("thinking levels", () => {
  test("are sent as reasoning_effort, and left out from then on by a server that refuses it", async ({ provider }) => {
    const refused = { error: { message: "Unrecognized request argument supplied: reasoning_effort" } };
    const { chat, server } = await provider([{ status: 400, body: refused }, { text: "fine" }, { text: "again" }]);
    expect((await answer(chat.stream({ ...request(), thinking: "low" }))).content).toBe("fine");
    await answer(chat.stream({ ...request(), thinking: "off" }));
    const sent = server.requests.map((sent) => (sent.body as { reasoning_effort?: string }).reasoning_effort);
    expect(sent).toEqual(["low", undefined, undefined]);
    expect(server.requests[1]!.body.stream_options).toEqual({ include_usage: true });
  });
});
