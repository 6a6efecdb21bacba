import { test as base, describe, expect } from "../../../tests/support/fixtures.js";
import {
  finishChunk,
  type GeminiReply,
  type GeminiServer,
  modelChunk,
  startGeminiServer,
} from "../../../tests/support/gemini-server.js";
import { conversationWithImages, JPEG_BASE64, PNG_BASE64 } from "../../../tests/support/images.js";
import {
  chatRequest,
  errorOf,
  eventLines,
  collect as gather,
  LOOKUP_TOOL,
} from "../../../tests/support/provider-stream.js";
import type { Env } from "../../shared/env.js";
import { resolveProviderConfig } from "../config.js";
import { createProvider } from "../create.js";
import { finalAnswer } from "../final-answer.js";
import { ProviderError } from "../provider-error.js";
import type { ChatRequest, LLMProvider, Message, ProviderEvent } from "../types.js";

interface Scripted {
  provider: LLMProvider & { stream(request: ChatRequest): AsyncIterable<ProviderEvent> };
  server: GeminiServer;
}

/** `gemini(script, env)`: the native Gemini adapter talking to a scripted server started for this test. */
const test = base.extend<{ gemini: (script: GeminiReply[], env?: Env) => Promise<Scripted> }>({
  gemini: async ({ home, httpServers }, use) =>
    use(async (script, env = {}) => {
      const server = httpServers.adopt(await startGeminiServer(script));
      const fullEnv = { GEMINI_API_KEY: "test-key", GEMINI_BASE_URL: server.origin, ...env };
      const config = resolveProviderConfig("gemini", { env: fullEnv, home, codingMode: false, nonInteractive: true });
      return { provider: (await createProvider(config, fullEnv)) as Scripted["provider"], server };
    }),
});

describe("the request Marvin sends", () => {
  test("goes to streamGenerateContent with the key in its header, never in the URL", async ({ gemini }) => {
    const { provider, server } = await gemini([{ chunks: [modelChunk([{ text: "Hi." }]), finishChunk("STOP")] }]);
    await finalAnswer(
      provider.stream(
        chatRequest([
          { role: "system", content: "You are Marvin." },
          { role: "user", content: "hi", context: "<context>\nnow\n</context>" },
        ]),
      ),
    );
    const [sent] = server.requests;
    expect(sent!.url).toBe("/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse");
    expect(sent!.headers["x-goog-api-key"]).toBe("test-key");
    expect(sent!.url).not.toContain("test-key");
    expect(server.bodies()[0]).toEqual({
      systemInstruction: { parts: [{ text: "You are Marvin." }] },
      contents: [{ role: "user", parts: [{ text: "<context>\nnow\n</context>\n\nhi" }] }],
      generationConfig: { thinkingConfig: { includeThoughts: true } },
    });
  });

  test("maps the thinking level to Gemini 3's thinkingLevel and 2.5's thinkingBudget", async ({ gemini }) => {
    const answer = { chunks: [modelChunk([{ text: "ok" }]), finishChunk("STOP")] };
    const three = await gemini([answer, answer]);
    await finalAnswer(three.provider.stream(chatRequest(undefined, { thinking: "low" })));
    await finalAnswer(three.provider.stream(chatRequest(undefined, { thinking: "off" })));
    expect(three.server.bodies().map((body) => body.generationConfig?.thinkingConfig)).toEqual([
      { includeThoughts: true, thinkingLevel: "low" },
      { includeThoughts: true, thinkingLevel: "low" }, // Gemini 3 Pro cannot stop thinking
    ]);
    const flash = await gemini([answer, answer], { GEMINI_MODEL: "gemini-2.5-flash" });
    await finalAnswer(flash.provider.stream(chatRequest(undefined, { thinking: "high" })));
    await finalAnswer(flash.provider.stream(chatRequest(undefined, { thinking: "off" })));
    expect(flash.server.bodies().map((body) => body.generationConfig?.thinkingConfig)).toEqual([
      { includeThoughts: true, thinkingBudget: 24576 },
      { includeThoughts: false, thinkingBudget: 0 },
    ]);
  });

  test("converts tool schemas to what Gemini accepts", async ({ gemini }) => {
    const { provider, server } = await gemini([{ chunks: [modelChunk([{ text: "ok" }]), finishChunk("STOP")] }]);
    const odd = {
      type: "function" as const,
      function: {
        name: "odd",
        description: "Every keyword Gemini refuses.",
        parameters: {
          $schema: "https://json-schema.org/draft/2020-12/schema",
          type: "object",
          additionalProperties: false,
          properties: {
            note: { type: ["string", "null"], format: "uri" },
            count: { type: "integer", exclusiveMinimum: 0 },
            mode: { const: "fast" },
            level: { enum: [1, 2] },
            place: { $ref: "#/$defs/place" },
          },
          required: ["count", "ghost"],
          $defs: { place: { type: "object", properties: { name: { type: "string" } } } },
        },
      },
    };
    const none = {
      type: "function" as const,
      function: { name: "none", description: "No parameters.", parameters: { type: "object", properties: {} } },
    };
    await finalAnswer(provider.stream(chatRequest(undefined, { tools: [odd, none] })));
    expect(server.bodies()[0]!.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: "odd",
            description: "Every keyword Gemini refuses.",
            parameters: {
              type: "OBJECT",
              properties: {
                note: { type: "STRING", nullable: true },
                count: { type: "INTEGER", minimum: 0 },
                mode: { type: "STRING", enum: ["fast"] },
                level: { description: "One of: 1, 2." },
                place: { type: "OBJECT", properties: { name: { type: "STRING" } } },
              },
              required: ["count"],
            },
          },
          { name: "none", description: "No parameters." },
        ],
      },
    ]);
  });
});

describe("the stream Gemini sends", () => {
  test("streams thoughts as reasoning and text as text, and counts cached and thinking tokens", async ({ gemini }) => {
    const { provider } = await gemini([
      {
        chunks: [
          modelChunk([{ text: "Weighing it.", thought: true }]),
          modelChunk([{ text: "Forty" }]),
          modelChunk([{ text: "-two." }]),
          finishChunk("STOP", {
            promptTokenCount: 1200,
            candidatesTokenCount: 30,
            thoughtsTokenCount: 70,
            cachedContentTokenCount: 1000,
          }),
        ],
      },
    ]);
    const { seen, last } = await eventLines(provider.stream(chatRequest()));
    expect(seen).toEqual(["reasoning_delta Weighing it.", "text_delta Forty", "text_delta -two."]);
    expect(last).toMatchObject({
      type: "done",
      response: {
        content: "Forty-two.",
        reasoning: "Weighing it.",
        finishReason: "stop",
        model: "gemini-test",
        usage: { promptTokens: 1200, completionTokens: 100, cachedTokens: 1000 },
      },
    });
  });

  test("returns every thought signature exactly where it came, through a tool round and the next question", async ({
    gemini,
  }) => {
    const { provider, server } = await gemini([
      {
        chunks: [
          modelChunk([{ text: "Let me look.", thoughtSignature: "sig-text" }]),
          // Parallel calls arrive whole in one chunk: only the first carries the signature.
          modelChunk([
            { functionCall: { name: "lookup", args: { word: "towel" } }, thoughtSignature: "sig-call" },
            { functionCall: { name: "lookup", args: { word: "babel" } } },
          ]),
          finishChunk("STOP"),
        ],
      },
      {
        chunks: [
          modelChunk([{ text: "Both found." }]),
          finishChunk("STOP", undefined, [{ text: "", thoughtSignature: "sig-end" }]),
        ],
      },
      { chunks: [modelChunk([{ text: "You are welcome." }]), finishChunk("STOP")] },
    ]);
    const messages: Message[] = [{ role: "user", content: "look up towel and babel" }];
    const { seen, last } = await eventLines(provider.stream(chatRequest(messages, { tools: [LOOKUP_TOOL] })));
    expect(seen).toEqual(["text_delta Let me look.", "tool_call_start 0 lookup", "tool_call_start 1 lookup"]);
    const first = (last as Extract<ProviderEvent, { type: "done" }>).response;
    expect(first.finishReason).toBe("tool_calls");
    expect(first.toolCalls.map((call) => [call.function.name, JSON.parse(call.function.arguments)])).toEqual([
      ["lookup", { word: "towel" }],
      ["lookup", { word: "babel" }],
    ]);
    messages.push(
      { role: "assistant", content: first.content, tool_calls: first.toolCalls, replay: first.replay },
      { role: "tool", tool_call_id: first.toolCalls[0]!.id, content: "a towel" },
      { role: "tool", tool_call_id: first.toolCalls[1]!.id, content: "a fish" },
    );
    const second = await finalAnswer(provider.stream(chatRequest(messages, { tools: [LOOKUP_TOOL] })));
    messages.push(
      { role: "assistant", content: second.content, replay: second.replay },
      { role: "user", content: "thanks" },
    );
    await finalAnswer(provider.stream(chatRequest(messages, { tools: [LOOKUP_TOOL] })));

    const model = {
      role: "model",
      parts: [
        { text: "Let me look.", thoughtSignature: "sig-text" },
        { functionCall: { name: "lookup", args: { word: "towel" } }, thoughtSignature: "sig-call" },
        { functionCall: { name: "lookup", args: { word: "babel" } } },
      ],
    };
    const results = {
      role: "user",
      parts: [
        { functionResponse: { name: "lookup", response: { output: "a towel" } } },
        { functionResponse: { name: "lookup", response: { output: "a fish" } } },
      ],
    };
    expect(server.bodies()[1]!.contents.slice(1)).toEqual([model, results]);
    expect(server.bodies()[2]!.contents.slice(1)).toEqual([
      model,
      results,
      { role: "model", parts: [{ text: "Both found." }, { text: "", thoughtSignature: "sig-end" }] },
      { role: "user", parts: [{ text: "thanks" }] },
    ]);
  });

  test("says the answer was cut at the output limit, and keeps it", async ({ gemini }) => {
    const { provider } = await gemini([
      { chunks: [modelChunk([{ text: "The list: one, two" }]), finishChunk("MAX_TOKENS")] },
    ]);
    const { seen, last } = await eventLines(provider.stream(chatRequest()));
    expect(seen.at(-1)).toBe(
      "notice Gemini reached its output limit (MAX_TOKENS): the answer is cut short. Ask it to go on, or to be " +
        "briefer.",
    );
    expect(last).toMatchObject({ type: "done", response: { content: "The list: one, two", finishReason: "length" } });
  });

  test("explains a SAFETY stop after part of the answer, as an error that keeps the part", async ({ gemini }) => {
    const { provider } = await gemini([
      { chunks: [modelChunk([{ text: "Here is how" }]), finishChunk("SAFETY", undefined, [])] },
    ]);
    const record = await gather(provider.stream(chatRequest()));
    expect(record.text).toEqual(["Here is how"]);
    const error = record.error!;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: "bad_request", partialOutput: true });
    expect(error.message).toBe(
      "Gemini stopped the answer because its safety filter flagged the answer (SAFETY). Rephrase the request, or " +
        "ask another provider.",
    );
  });

  test("explains a blocked prompt (promptFeedback.blockReason)", async ({ gemini }) => {
    const { provider } = await gemini([
      { chunks: [{ promptFeedback: { blockReason: "PROHIBITED_CONTENT" }, usageMetadata: { promptTokenCount: 9 } }] },
    ]);
    const error = errorOf((await eventLines(provider.stream(chatRequest()))).last);
    expect(error.message).toBe(
      "Gemini refused the request: it flagged the request as prohibited content (PROHIBITED_CONTENT). Rephrase " +
        "it, or ask another provider.",
    );
  });

  test("treats a malformed function call as worth a retry", async ({ gemini }) => {
    const { provider } = await gemini([{ chunks: [finishChunk("MALFORMED_FUNCTION_CALL")] }]);
    const error = errorOf((await eventLines(provider.stream(chatRequest()))).last);
    expect(error).toMatchObject({ kind: "server", partialOutput: false });
    expect(error.message).toContain("it wrote a tool call it could not complete (MALFORMED_FUNCTION_CALL). Try again.");
  });

  test("reports an error object sent mid-stream, and a stream that stops without a finish reason", async ({
    gemini,
  }) => {
    const { provider } = await gemini([
      {
        chunks: [
          modelChunk([{ text: "par" }]),
          { error: { code: 503, message: "The model is overloaded.", status: "UNAVAILABLE" } },
        ],
      },
      { chunks: [modelChunk([{ text: "par" }])] },
    ]);
    expect(errorOf((await eventLines(provider.stream(chatRequest()))).last)).toMatchObject({
      kind: "server",
      partialOutput: true,
      message: "Gemini reported an error mid-stream: The model is overloaded.",
    });
    expect(errorOf((await eventLines(provider.stream(chatRequest()))).last)).toMatchObject({
      kind: "stream_cut",
      partialOutput: true,
    });
  });
});

describe("time limits and cancels", () => {
  test("cancels a stream that goes silent for longer than the idle limit, keeping what arrived", async ({ gemini }) => {
    const { provider, server } = await gemini([{ chunks: [modelChunk([{ text: "first words," }])], stall: true }], {
      MARVIN_STREAM_IDLE_TIMEOUT: "0.2",
    });
    const { seen, last } = await eventLines(provider.stream(chatRequest()));
    expect(seen).toEqual(["text_delta first words,"]);
    expect(errorOf(last)).toMatchObject({
      kind: "timeout",
      partialOutput: true,
      message: `gemini sent nothing for 0.2s (${server.origin}); the request was cancelled.`,
    });
  });

  test("reports the person's cancel as cancelled", async ({ gemini }) => {
    const { provider } = await gemini([{ chunks: [modelChunk([{ text: "slow" }])], stall: true }]);
    const controller = new AbortController();
    const deltas: string[] = [];
    let failure: unknown;
    for await (const event of provider.stream(chatRequest(undefined, { signal: controller.signal }))) {
      if (event.type === "text_delta") {
        deltas.push(event.text);
        controller.abort();
      } else if (event.type === "error") failure = event.error;
    }
    expect(failure).toMatchObject({
      kind: "aborted",
      partialOutput: true,
      message: "Request cancelled.",
    });
    expect(deltas).toEqual(["slow"]);
  });
});

describe("HTTP errors", () => {
  const googleError = (code: number, status: string, message: string, details: unknown[] = []) => ({
    error: { code, message, status, details },
  });

  test("a 429 RESOURCE_EXHAUSTED waits as long as its RetryInfo says", async ({ gemini }) => {
    const retry = { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "37s" };
    const { provider } = await gemini([
      { status: 429, body: googleError(429, "RESOURCE_EXHAUSTED", "You exceeded your current quota.", [retry]) },
    ]);
    const error = errorOf((await eventLines(provider.stream(chatRequest()))).last);
    expect(error).toMatchObject({ kind: "rate_limit", status: 429, retryAfterSeconds: 37 });
    expect(error.message).toBe("gemini rate limit (HTTP 429): You exceeded your current quota. (RESOURCE_EXHAUSTED)");
  });

  test("an invalid key (400 API_KEY_INVALID) and a 403 name the key setting", async ({ gemini }) => {
    const invalid = { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID" };
    const { provider } = await gemini([
      {
        status: 400,
        body: googleError(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.", [invalid]),
      },
      { status: 403, body: googleError(403, "PERMISSION_DENIED", "Permission denied.") },
    ]);
    const first = errorOf((await eventLines(provider.stream(chatRequest()))).last);
    expect(first).toMatchObject({ kind: "auth", status: 400 });
    expect(first.message).toMatch(/refused the API key .*Check GEMINI_API_KEY \(or ~\/\.ssh\/GEMINI_API_KEY\)\.$/);
    expect(errorOf((await eventLines(provider.stream(chatRequest()))).last)).toMatchObject({
      kind: "auth",
      status: 403,
    });
  });

  test("a prompt longer than the model's window is a context overflow; 400 otherwise a bad request", async ({
    gemini,
  }) => {
    const { provider } = await gemini([
      {
        status: 400,
        body: googleError(
          400,
          "INVALID_ARGUMENT",
          "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
        ),
      },
      { status: 400, body: googleError(400, "INVALID_ARGUMENT", "Request contains an invalid argument.") },
      { status: 503, body: googleError(503, "UNAVAILABLE", "The model is overloaded. Please try again later.") },
    ]);
    expect(errorOf((await eventLines(provider.stream(chatRequest()))).last).kind).toBe("context_overflow");
    expect(errorOf((await eventLines(provider.stream(chatRequest()))).last)).toMatchObject({
      kind: "bad_request",
      message: "gemini rejected the request (HTTP 400): Request contains an invalid argument. (INVALID_ARGUMENT)",
    });
    expect(errorOf((await eventLines(provider.stream(chatRequest()))).last)).toMatchObject({
      kind: "server",
      status: 503,
    });
  });
});

describe("images", () => {
  test("sends images as inlineData parts, after the text or the function response they belong to", async ({
    gemini,
  }) => {
    const { provider, server } = await gemini([{ chunks: [modelChunk([{ text: "Red." }]), finishChunk("STOP")] }]);
    await finalAnswer(provider.stream(chatRequest(conversationWithImages())));
    const { contents } = server.bodies()[0] as { contents: Array<{ role: string; parts: unknown[] }> };
    expect(contents[0]!.parts).toEqual([
      { text: "what is this?" },
      { inlineData: { mimeType: "image/png", data: PNG_BASE64() } },
    ]);
    expect(contents[2]).toEqual({
      role: "user",
      parts: [
        { functionResponse: { name: "read_file", response: { output: "b.jpg: JPEG, 3×2, 761 B" } } },
        { inlineData: { mimeType: "image/jpeg", data: JPEG_BASE64() } },
      ],
    });
  });
});
