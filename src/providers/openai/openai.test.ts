import { test as base, describe, expect } from "../../../tests/support/fixtures.js";
import { conversationWithImages, JPEG_BASE64, PNG_BASE64 } from "../../../tests/support/images.js";
import { chatRequest, collect, failureOf, WEATHER_TOOL } from "../../../tests/support/provider-stream.js";
import {
  errorEvent,
  failedEvent,
  type ResponsesReply,
  type ResponsesServer,
  responseEvents,
  startResponsesServer,
} from "../../../tests/support/responses-server.js";
import type { Env } from "../../shared/env.js";
import { resolveProviderConfig } from "../config.js";
import type { ChatRequest, Message } from "../types.js";
import { ResponsesProvider } from "./index.js";

interface Scripted {
  openai: ResponsesProvider;
  server: ResponsesServer;
}

type Start = (script: ResponsesReply[], env?: Env, model?: string) => Promise<Scripted>;

/** `responses(script, env, model)`: the adapter talking to a scripted Responses API started for this test. */
const test = base.extend<{ responses: Start }>({
  responses: async ({ home, httpServers }, use) =>
    use(async (script, env = {}, model = undefined) => {
      const server = httpServers.adopt(await startResponsesServer(script));
      const config = resolveProviderConfig("openai", {
        env: { OPENAI_BASE_URL: `${server.url}/`, OPENAI_API_KEY: "sk-test", ...env },
        home,
        model,
        codingMode: false,
        nonInteractive: false,
      });
      return { openai: new ResponsesProvider(config), server };
    }),
});

const hi: Message[] = [
  { role: "system", content: "You are Marvin." },
  { role: "user", content: "hi" },
];
const ENCRYPTED = `gAAAAABo${"x".repeat(120)}==`;
const SUMMARY = ["**Checking the place**\n\nThe user wants Paris.", "**Calling the tool**\n\nweather it is."];

describe("a streamed response", () => {
  test("streams reasoning summaries, then text, and ends with the answer, its usage and cached tokens", async ({
    responses,
  }) => {
    const { openai, server } = await responses([
      {
        response: {
          reasoning: { summary: SUMMARY, encrypted: ENCRYPTED },
          text: "Hello there, how can I help?",
          usage: { input: 1_200, output: 40, cached: 1_024 },
          model: "gpt-5.1-2025-11-13",
        },
      },
    ]);
    const streamed = await collect(openai.stream(chatRequest(hi, { cacheKey: "conversation-7", thinking: "high" })));
    const kinds = streamed.events.map((event) => event.type);
    expect(kinds.lastIndexOf("reasoning_delta")).toBeLessThan(kinds.indexOf("text_delta"));
    expect(streamed.reasoning.length).toBeGreaterThan(4);
    expect(streamed.reasoning.join("")).toBe(SUMMARY.join("\n\n"));
    expect(streamed.text.join("")).toBe("Hello there, how can I help?");
    expect(streamed.response).toMatchObject({
      content: "Hello there, how can I help?",
      toolCalls: [],
      model: "gpt-5.1-2025-11-13",
      finishReason: "stop",
      reasoning: SUMMARY.join("\n\n"),
      usage: { promptTokens: 1_200, completionTokens: 40, cachedTokens: 1_024 },
      replay: {
        provider: "openai",
        items: [
          { model: "gpt-5.1", item: { type: "reasoning", summary: expect.any(Array), encrypted_content: ENCRYPTED } },
        ],
      },
    });

    const [sent] = server.requests;
    expect(sent!.headers.authorization).toBe("Bearer sk-test");
    expect(sent!.body).toEqual({
      model: "gpt-5.1",
      instructions: "You are Marvin.",
      input: [{ role: "user", content: "hi" }],
      reasoning: { effort: "high", summary: "auto" },
      include: ["reasoning.encrypted_content"],
      stream: true,
      store: false,
      prompt_cache_key: "conversation-7",
    });
  });

  test("announces each function call once its item is added, and puts its arguments together", async ({
    responses,
  }) => {
    const calls = [
      { callId: "call_Paris", name: "weather", arguments: { place: "Paris" } },
      { callId: "call_Oslo", name: "weather", arguments: { place: "Oslo" } },
    ];
    const { openai, server } = await responses([{ response: { text: "Looking.", toolCalls: calls } }]);
    const streamed = await collect(openai.stream(chatRequest(hi, { tools: [WEATHER_TOOL] })));
    expect(streamed.starts).toEqual([
      { id: "call_Paris", name: "weather", index: 0 },
      { id: "call_Oslo", name: "weather", index: 1 },
    ]);
    expect(streamed.response!.finishReason).toBe("tool_calls");
    expect(streamed.response!.toolCalls).toEqual([
      { id: "call_Paris", type: "function", function: { name: "weather", arguments: '{"place":"Paris"}' } },
      { id: "call_Oslo", type: "function", function: { name: "weather", arguments: '{"place":"Oslo"}' } },
    ]);
    expect(server.requests[0]!.body.tools).toEqual([
      {
        type: "function",
        name: "weather",
        description: "The weather of a place",
        parameters: WEATHER_TOOL.function.parameters,
        strict: false,
      },
    ]);
  });

  test("sends the encrypted reasoning back with its answer through the tool loop, without ids", async ({
    responses,
  }) => {
    const call = { callId: "call_Paris", name: "weather", arguments: { place: "Paris" } };
    const { openai, server } = await responses([
      { response: { reasoning: { summary: SUMMARY, encrypted: ENCRYPTED }, toolCalls: [call] } },
      { response: { text: "Sunny in Paris." } },
    ]);
    const first = (await collect(openai.stream(chatRequest(hi, { tools: [WEATHER_TOOL] })))).response!;
    const loop: Message[] = [
      ...hi,
      { role: "assistant", content: null, tool_calls: first.toolCalls, replay: first.replay },
      { role: "tool", tool_call_id: "call_Paris", content: "Sunny, 24 °C" },
    ];
    const second = (await collect(openai.stream(chatRequest(loop, { tools: [WEATHER_TOOL] })))).response!;
    expect(second.content).toBe("Sunny in Paris.");
    expect(server.requests[1]!.body.input).toEqual([
      { role: "user", content: "hi" },
      {
        type: "reasoning",
        summary: SUMMARY.map((text) => ({ type: "summary_text", text })),
        encrypted_content: ENCRYPTED,
      },
      { type: "function_call", call_id: "call_Paris", name: "weather", arguments: '{"place":"Paris"}' },
      { type: "function_call_output", call_id: "call_Paris", output: "Sunny, 24 °C" },
    ]);
  });

  test("leaves out reasoning another model or provider wrote, and replay data of the wrong shape", async ({
    responses,
  }) => {
    const { openai, server } = await responses([{ response: { text: "ok" } }]);
    const item = { type: "reasoning", summary: [], encrypted_content: ENCRYPTED };
    const answers: Message[] = [
      { role: "assistant", content: "A.", replay: { provider: "openai", items: [{ model: "o3", item }] } },
      { role: "assistant", content: "B.", replay: { provider: "anthropic", items: [{ model: "gpt-5.1", item }] } },
      { role: "assistant", content: "C.", replay: { provider: "openai", items: [{ model: "gpt-5.1", item: 7 }] } },
    ];
    await collect(openai.stream(chatRequest([{ role: "user", content: "hi" }, ...answers])));
    const input = server.requests[0]!.body.input;
    expect(input.filter((entry) => entry.type === "reasoning")).toEqual([]);
    expect(input.at(-1)).toEqual({
      type: "message",
      role: "assistant",
      content: [{ type: "output_text", text: "C." }],
    });
  });

  test("a response cut short by its output limit ends as such, with the text so far", async ({ responses }) => {
    const { openai } = await responses([{ response: { text: "The first half", incomplete: "max_output_tokens" } }]);
    const answer = (await collect(openai.stream(chatRequest(hi)))).response!;
    expect(answer).toMatchObject({ content: "The first half", finishReason: "length" });
  });
});

describe("thinking levels", () => {
  async function sentFor(responses: Start, model: string, thinking: ChatRequest["thinking"]) {
    const { openai, server } = await responses([{ response: { text: "ok" } }], {}, model);
    await collect(openai.stream(chatRequest(hi, { thinking })));
    const { reasoning, include } = server.requests[0]!.body;
    return { reasoning, include };
  }

  test("map to the reasoning effort each model takes; no level leaves the model's own default", async ({
    responses,
  }) => {
    expect(await sentFor(responses, "gpt-5.1", "off")).toMatchObject({ reasoning: { effort: "none" } });
    expect(await sentFor(responses, "gpt-5", "off")).toMatchObject({ reasoning: { effort: "minimal" } });
    expect(await sentFor(responses, "o4-mini", "off")).toMatchObject({ reasoning: { effort: "low" } });
    expect(await sentFor(responses, "gpt-5.1", "medium")).toMatchObject({ reasoning: { effort: "medium" } });
    expect(await sentFor(responses, "gpt-5.1", undefined)).toEqual({
      reasoning: { summary: "auto" },
      include: ["reasoning.encrypted_content"],
    });
  });

  test("a model that does not reason is asked for no reasoning at all", async ({ responses }) => {
    expect(await sentFor(responses, "gpt-4.1", "high")).toEqual({ reasoning: undefined, include: undefined });
  });
});

describe("failures arrive as an error event, classified", () => {
  const apiError = (code: string, message: string) => ({
    error: { message, type: "invalid_request_error", param: "input", code },
  });

  test("a conversation too long for the model is a context overflow, as an HTTP error or a failed response", async ({
    responses,
  }) => {
    const words = "Your input exceeds the context window of this model. Please adjust your input and try again.";
    const { openai } = await responses([
      { status: 400, body: apiError("context_length_exceeded", words) },
      { events: [...responseEvents({}).slice(0, 2), failedEvent("context_length_exceeded", words)] },
    ]);
    const http = await failureOf(openai.stream(chatRequest(hi)));
    expect(http).toMatchObject({ kind: "context_overflow", status: 400 });
    expect(http.message).toBe(
      `The conversation is too long for gpt-5.1 (${words}). Compact the history or start a new conversation.`,
    );
    expect(await failureOf(openai.stream(chatRequest(hi)))).toMatchObject({ kind: "context_overflow" });
  });

  test("response.failed after some text says what failed and that text was already passed on", async ({
    responses,
  }) => {
    const events = responseEvents({ text: "Let me see" });
    const beforeDone = events.findIndex((event) => event.type === "response.output_text.done");
    const { openai } = await responses([
      { events: [...events.slice(0, beforeDone), failedEvent("server_error", "The server had an error.")] },
    ]);
    const streamed = await collect(openai.stream(chatRequest(hi)));
    expect(streamed.text.join("")).toBe("Let me see");
    expect(streamed.error).toMatchObject({ kind: "server", partialOutput: true });
    expect(streamed.error!.message).toBe("openai reported an error mid-stream: The server had an error.");
  });

  test("an error event is classified by its code", async ({ responses }) => {
    const { openai } = await responses([
      { events: [errorEvent("rate_limit_exceeded", "Rate limit reached for gpt-5.1 on tokens per min.")] },
    ]);
    expect(await failureOf(openai.stream(chatRequest(hi)))).toMatchObject({ kind: "rate_limit", partialOutput: false });
  });

  test("a refused key names the variable it comes from", async ({ responses }) => {
    const { openai } = await responses([
      { status: 401, body: apiError("invalid_api_key", "Incorrect API key provided: sk-test.") },
    ]);
    const error = await failureOf(openai.stream(chatRequest(hi)));
    expect(error.message).toBe(
      "openai refused the API key (HTTP 401): Incorrect API key provided: sk-test.. Check OPENAI_API_KEY (or " +
        "~/.ssh/OPENAI_API_KEY).",
    );
  });

  test("a stream that ends before response.completed is cut, keeping what arrived", async ({ responses }) => {
    const events = responseEvents({ text: "Half an answer" });
    const { openai } = await responses([{ events: events.slice(0, -1), ending: "drop" }]);
    const error = await failureOf(openai.stream(chatRequest(hi)));
    expect(error).toMatchObject({ kind: "stream_cut", partialOutput: true });
  });
});

describe("images", () => {
  test("sends images as input_image parts, a tool result's in a user message after its output", async ({
    responses,
  }) => {
    const { openai, server } = await responses([{ events: responseEvents({ text: "Red." }) }]);
    await collect(openai.stream(chatRequest(conversationWithImages())));
    expect(server.requests[0]!.body.input).toEqual([
      {
        role: "user",
        content: [
          { type: "input_text", text: "what is this?" },
          { type: "input_image", image_url: `data:image/png;base64,${PNG_BASE64()}` },
        ],
      },
      { type: "function_call", call_id: "call_1", name: "read_file", arguments: '{"path":"b.jpg"}' },
      { type: "function_call_output", call_id: "call_1", output: "b.jpg: JPEG, 3×2, 761 B" },
      {
        role: "user",
        content: [
          { type: "input_text", text: "The images the tool results above returned:" },
          { type: "input_image", image_url: `data:image/jpeg;base64,${JPEG_BASE64()}` },
        ],
      },
    ]);
  });
});
