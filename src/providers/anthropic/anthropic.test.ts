import {
  type AnthropicReply,
  type AnthropicServer,
  errorEvent,
  messageEvents,
  startAnthropicServer,
} from "../../../tests/support/anthropic-server.js";
import { test as base, describe, expect } from "../../../tests/support/fixtures.js";
import { conversationWithImages, JPEG_BASE64, PNG_BASE64 } from "../../../tests/support/images.js";
import { chatRequest, WEATHER_TOOL } from "../../../tests/support/provider-stream.js";
import type { Env } from "../../shared/env.js";
import type { ToolSchema } from "../../shared/tool-schema.js";
import { resolveProviderConfig } from "../config.js";
import { ProviderError } from "../provider-error.js";
import type { LLMResponse, Message, ProviderEvent } from "../types.js";
import { AnthropicProvider } from "./index.js";

interface Scripted {
  claude: AnthropicProvider;
  server: AnthropicServer;
}

/** `anthropic(script, env)`: the adapter talking to a scripted Messages API started for this test. */
const test = base.extend<{ anthropic: (script: AnthropicReply[], env?: Env) => Promise<Scripted> }>({
  anthropic: async ({ home, httpServers }, use) =>
    use(async (script, env = {}) => {
      const server = httpServers.adopt(await startAnthropicServer(script));
      const config = resolveProviderConfig("anthropic", {
        env: { ANTHROPIC_BASE_URL: `${server.url}/`, ANTHROPIC_API_KEY: "sk-ant-test", ...env },
        home,
        codingMode: false,
        nonInteractive: false,
      });
      return { claude: new AnthropicProvider(config), server };
    }),
});

const TIMER: ToolSchema = {
  type: "function",
  function: { name: "timer_start", description: "Starts a timer", parameters: { type: "object", properties: {} } },
};

async function collect(events: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const all: ProviderEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

function doneOf(events: ProviderEvent[]): LLMResponse {
  const last = events.at(-1);
  if (last?.type !== "done") throw new Error(`expected done, got ${JSON.stringify(last)}`);
  return last.response;
}

function errorOf(events: ProviderEvent[]): ProviderError {
  const last = events.at(-1);
  if (last?.type !== "error") throw new Error(`expected an error, got ${JSON.stringify(last)}`);
  expect(last.error).toBeInstanceOf(ProviderError);
  return last.error as ProviderError;
}

const texts = (events: ProviderEvent[], type: "text_delta" | "reasoning_delta") =>
  events.flatMap((event) => (event.type === type ? [event.text] : []));

const hi: Message[] = [{ role: "user", content: "hi" }];

describe("streaming an answer", () => {
  test("passes the text on as it arrives and ends with the whole answer, its usage and cache counts", async ({
    anthropic,
  }) => {
    const { claude, server } = await anthropic([
      {
        message: {
          text: "Hello there, how can I help?",
          usage: { input: 12, output: 9, cacheRead: 3000, cacheWrite: 200 },
          model: "claude-sonnet-5-5-20261001",
        },
      },
    ]);
    const events = await collect(claude.stream(chatRequest(hi)));
    expect(texts(events, "text_delta").length).toBeGreaterThan(1);
    expect(texts(events, "text_delta").join("")).toBe("Hello there, how can I help?");
    expect(doneOf(events)).toEqual({
      content: "Hello there, how can I help?",
      toolCalls: [],
      usage: { promptTokens: 3212, completionTokens: 9, cachedTokens: 3000, cacheWriteTokens: 200 },
      model: "claude-sonnet-5-5-20261001",
      finishReason: "stop",
    });
    const [sent] = server.requests;
    expect(sent!.headers).toMatchObject({
      "x-api-key": "sk-ant-test",
      "anthropic-version": "2023-06-01",
      "content-type": "application/json",
    });
    expect(sent!.body).toMatchObject({ model: "claude-sonnet-5-5", stream: true, max_tokens: 32_000 });
    expect(sent!.body).not.toHaveProperty("thinking");
  });

  test("ignores event types it does not know and passes on nothing after message_stop", async ({ anthropic }) => {
    const events = messageEvents({ text: "Fine." });
    const stop = events.findIndex((event) => event.type === "message_stop");
    events.splice(stop, 0, { type: "some_future_event", detail: 1 });
    const late = { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: " Extra" } };
    const { claude } = await anthropic([{ events: [...events, late] }]);
    const result = await collect(claude.stream(chatRequest(hi)));
    expect(doneOf(result).content).toBe("Fine.");
  });
});

describe("tool use", () => {
  test("puts each call's input together from its JSON fragments and announces parallel calls in order", async ({
    anthropic,
  }) => {
    const { claude, server } = await anthropic([
      {
        message: {
          text: "Checking both.",
          toolCalls: [
            { id: "toolu_01A", name: "weather", input: { place: 'Zürich, "old town"', days: [1, 2] } },
            { id: "toolu_01B", name: "timer_start", input: {} },
          ],
        },
      },
    ]);
    const events = await collect(claude.stream(chatRequest(hi, { tools: [WEATHER_TOOL, TIMER] })));
    expect(events.filter((event) => event.type === "tool_call_start")).toEqual([
      { type: "tool_call_start", call: { id: "toolu_01A", name: "weather", index: 0 } },
      { type: "tool_call_start", call: { id: "toolu_01B", name: "timer_start", index: 1 } },
    ]);
    const response = doneOf(events);
    expect(response.finishReason).toBe("tool_calls");
    expect(
      response.toolCalls.map((call) => [call.id, call.function.name, JSON.parse(call.function.arguments)]),
    ).toEqual([
      ["toolu_01A", "weather", { place: 'Zürich, "old town"', days: [1, 2] }],
      ["toolu_01B", "timer_start", {}],
    ]);
    expect(server.requests[0]!.body.tools).toEqual([
      { name: "weather", description: "The weather of a place", input_schema: WEATHER_TOOL.function.parameters },
      {
        name: "timer_start",
        description: "Starts a timer",
        input_schema: TIMER.function.parameters,
        cache_control: { type: "ephemeral" },
      },
    ]);
  });

  test("sends Marvin's conversation in Anthropic's shape, with four cache breakpoints", async ({ anthropic }) => {
    const { claude, server } = await anthropic([{ message: { text: "Sunny, and the timer runs." } }]);
    const conversation: Message[] = [
      { role: "system", content: "You are Marvin." },
      { role: "user", content: "weather in Bern?", context: "<context>\nTime: 09:00\n</context>" },
      { role: "assistant", content: "It is sunny." },
      { role: "user", content: "and start a timer, and check Zürich" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "toolu_01A", type: "function", function: { name: "weather", arguments: '{"place":"Zürich"}' } },
          { id: "call.7", type: "function", function: { name: "timer_start", arguments: "" } },
        ],
      },
      { role: "tool", tool_call_id: "toolu_01A", content: "Sunny, 21°C" },
      { role: "tool", tool_call_id: "call.7", content: "Timer started" },
      { role: "system", content: "Answer now." },
    ];
    await collect(claude.stream(chatRequest(conversation, { tools: [WEATHER_TOOL, TIMER] })));
    const body = server.requests[0]!.body;
    const cached = { cache_control: { type: "ephemeral" } };
    expect(body.system).toEqual([{ type: "text", text: "You are Marvin.", ...cached }]);
    expect(body.messages).toEqual([
      {
        role: "user",
        content: [{ type: "text", text: "<context>\nTime: 09:00\n</context>\n\nweather in Bern?" }],
      },
      { role: "assistant", content: [{ type: "text", text: "It is sunny." }] },
      { role: "user", content: [{ type: "text", text: "and start a timer, and check Zürich", ...cached }] },
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "toolu_01A", name: "weather", input: { place: "Zürich" } },
          { type: "tool_use", id: "call_7", name: "timer_start", input: {} },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_01A", content: "Sunny, 21°C" },
          { type: "tool_result", tool_use_id: "call_7", content: "Timer started" },
          { type: "text", text: "<system-note>\nAnswer now.\n</system-note>", ...cached },
        ],
      },
    ]);
    const breakpoints = JSON.stringify(body).match(/"cache_control"/g) ?? [];
    expect(breakpoints).toHaveLength(4);
  });
});

describe("extended thinking", () => {
  const signature = `EqQBCgIYAhIM1gbcDa9GJwZA2b3h${"x".repeat(300)}==`;

  test("streams the thinking as reasoning and keeps its blocks and signature for the next request", async ({
    anthropic,
  }) => {
    const { claude, server } = await anthropic([
      {
        message: {
          thinking: { text: "The user wants the weather; I should call the tool.", signature },
          redactedThinking: "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP",
          toolCalls: [{ id: "toolu_01A", name: "weather", input: { place: "Bern" } }],
        },
      },
      { message: { text: "It is sunny in Bern." } },
    ]);
    const first = await collect(
      claude.stream(chatRequest([{ role: "user", content: "weather?" }], { tools: [WEATHER_TOOL] })),
    );
    expect(texts(first, "reasoning_delta").join("")).toBe("The user wants the weather; I should call the tool.");
    expect(texts(first, "text_delta")).toEqual([]);
    const answer = doneOf(first);
    expect(answer.reasoning).toBe("The user wants the weather; I should call the tool.");
    expect(answer.replay?.provider).toBe("anthropic");

    const afterToolRound: Message[] = [
      { role: "user", content: "weather?" },
      { role: "assistant", content: null, tool_calls: answer.toolCalls, replay: answer.replay },
      { role: "tool", tool_call_id: "toolu_01A", content: "Sunny" },
    ];
    doneOf(await collect(claude.stream(chatRequest(afterToolRound, { tools: [WEATHER_TOOL] }))));
    expect(server.requests[1]!.body.messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "The user wants the weather; I should call the tool.", signature },
        { type: "redacted_thinking", data: "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP" },
        { type: "tool_use", id: "toolu_01A", name: "weather", input: { place: "Bern" } },
      ],
    });
  });

  test("leaves out thinking blocks another model wrote, and replay data of another provider", async ({ anthropic }) => {
    const { claude, server } = await anthropic([{ message: { text: "ok" } }], { ANTHROPIC_MODEL: "claude-opus-5-5" });
    const conversation: Message[] = [
      { role: "user", content: "hi" },
      {
        role: "assistant",
        content: "Hello.",
        replay: {
          provider: "anthropic",
          items: [{ model: "claude-sonnet-5-5", block: { type: "thinking", thinking: "hm", signature: "sig" } }],
        },
      },
      { role: "user", content: "and?" },
      { role: "assistant", content: "More.", replay: { provider: "gemini", items: [{ thoughtSignature: "abc" }] } },
      { role: "user", content: "thanks" },
    ];
    doneOf(await collect(claude.stream(chatRequest(conversation))));
    const assistants = server.requests[0]!.body.messages.filter((message) => message.role === "assistant");
    expect(assistants.map((message) => message.content)).toEqual([
      [{ type: "text", text: "Hello." }],
      [{ type: "text", text: "More." }],
    ]);
  });

  test("asks for a thinking budget on models that take one, adaptive thinking and an effort on later ones", async ({
    anthropic,
  }) => {
    const { claude: older, server: olderServer } = await anthropic([{ message: { text: "ok" } }], {
      ANTHROPIC_MODEL: "claude-sonnet-4-5-20250929",
    });
    await collect(older.stream(chatRequest(hi, { thinking: "high" })));
    expect(olderServer.requests[0]!.body).toMatchObject({
      max_tokens: 32_000,
      thinking: { type: "enabled", budget_tokens: 16_000 },
    });
    expect(olderServer.requests[0]!.body).not.toHaveProperty("output_config");

    const { claude, server } = await anthropic([{ message: { text: "ok" } }]);
    await collect(claude.stream(chatRequest(hi, { thinking: "low" })));
    await collect(claude.stream(chatRequest(hi, { thinking: "off" })));
    expect(server.requests[0]!.body).toMatchObject({
      thinking: { type: "adaptive", display: "summarized" },
      output_config: { effort: "low" },
    });
    expect(server.requests[1]!.body).not.toHaveProperty("thinking");
    expect(server.requests[1]!.body).not.toHaveProperty("output_config");
  });
});

describe("failures arrive as an error event, classified", () => {
  const apiError = (type: string, message: string) => ({ type: "error", error: { type, message }, request_id: "r" });

  test("a refused key names where the key comes from", async ({ anthropic }) => {
    const { claude } = await anthropic([{ status: 401, body: apiError("authentication_error", "invalid x-api-key") }]);
    const error = errorOf(await collect(claude.stream(chatRequest(hi))));
    expect(error).toMatchObject({ kind: "auth", status: 401 });
    expect(error.message).toBe(
      "anthropic refused the API key (HTTP 401): invalid x-api-key. Check ANTHROPIC_API_KEY (or " +
        "~/.ssh/ANTHROPIC_API_KEY).",
    );
  });

  test("a rate limit carries the wait the server asks for", async ({ anthropic }) => {
    const { claude } = await anthropic([
      {
        status: 429,
        body: apiError("rate_limit_error", "Number of requests exceeded"),
        headers: { "retry-after": "7" },
      },
    ]);
    const error = errorOf(await collect(claude.stream(chatRequest(hi))));
    expect(error).toMatchObject({ kind: "rate_limit", status: 429, retryAfterSeconds: 7 });
  });

  test("HTTP 529 (overloaded) is a server error, worth retrying", async ({ anthropic }) => {
    const { claude } = await anthropic([{ status: 529, body: apiError("overloaded_error", "Overloaded") }]);
    const error = errorOf(await collect(claude.stream(chatRequest(hi))));
    expect(error).toMatchObject({ kind: "server", status: 529 });
    expect(error.message).toBe("anthropic server error (HTTP 529): Overloaded");
  });

  test("a prompt too long for the model is a context overflow, not a plain bad request", async ({ anthropic }) => {
    const tooLong = apiError("invalid_request_error", "prompt is too long: 208310 tokens > 200000 maximum");
    const { claude } = await anthropic([
      { status: 400, body: tooLong },
      { status: 400, body: apiError("invalid_request_error", "messages: text content blocks must be non-empty") },
    ]);
    const overflow = errorOf(await collect(claude.stream(chatRequest(hi))));
    expect(overflow).toMatchObject({ kind: "context_overflow", status: 400 });
    expect(overflow.message).toBe(
      "The conversation is too long for claude-sonnet-5-5 (prompt is too long: 208310 tokens > 200000 maximum). " +
        "Compact the history or start a new conversation.",
    );
    const other = errorOf(await collect(claude.stream(chatRequest(hi))));
    expect(other).toMatchObject({ kind: "bad_request", status: 400 });
  });

  test("an overloaded_error event mid-stream ends the stream after the text so far", async ({ anthropic }) => {
    const events = messageEvents({ text: "Let me think about this" });
    const cutAt = events.findIndex((event) => event.type === "content_block_stop");
    const { claude } = await anthropic([
      { events: [...events.slice(0, cutAt), errorEvent("overloaded_error", "Overloaded")] },
    ]);
    const result = await collect(claude.stream(chatRequest(hi)));
    expect(texts(result, "text_delta").join("")).toBe("Let me think about this");
    const error = errorOf(result);
    expect(error).toMatchObject({ kind: "server", partialOutput: true });
    expect(error.message).toBe("anthropic reported an error mid-stream: overloaded_error: Overloaded");
  });

  test("an overloaded_error before any text can be retried from scratch", async ({ anthropic }) => {
    const events = messageEvents({ text: "never sent" }).slice(0, 1);
    const { claude } = await anthropic([{ events: [...events, errorEvent("overloaded_error", "Overloaded")] }]);
    expect(errorOf(await collect(claude.stream(chatRequest(hi))))).toMatchObject({
      kind: "server",
      partialOutput: false,
    });
  });

  test("a stream that ends without message_stop is cut, whether the body ends or the connection drops", async ({
    anthropic,
  }) => {
    const events = messageEvents({ text: "Half an ans" });
    const beforeStop = events.slice(
      0,
      events.findIndex((event) => event.type === "message_delta"),
    );
    const { claude } = await anthropic([{ events: beforeStop }, { events: beforeStop, ending: "drop" }]);
    for (const _ of [1, 2]) {
      const error = errorOf(await collect(claude.stream(chatRequest(hi))));
      expect(error).toMatchObject({ kind: "stream_cut", partialOutput: true });
      expect(error.message).toBe(
        "The response stream from anthropic ended before the model finished (the connection closed mid-answer).",
      );
    }
  });

  test("a server that goes silent is cut off after the idle limit, keeping the text so far", async ({ anthropic }) => {
    const events = messageEvents({ text: "first words" });
    const silentAfter = events.findIndex((event) => event.type === "content_block_stop");
    const { claude, server } = await anthropic([{ events: events.slice(0, silentAfter), ending: "silence" }], {
      MARVIN_STREAM_IDLE_TIMEOUT: "0.3",
    });
    const result = await collect(claude.stream(chatRequest(hi)));
    expect(texts(result, "text_delta").join("")).toBe("first words");
    const error = errorOf(result);
    expect(error).toMatchObject({ kind: "timeout", partialOutput: true });
    expect(error.message).toBe(`anthropic sent nothing for 0.3s (${server.url}); the request was cancelled.`);
  });

  test("a cancel by the caller is reported as cancelled, not as a broken stream", async ({ anthropic }) => {
    const { claude } = await anthropic([
      { events: messageEvents({ text: "a slow answer" }).slice(0, 4), ending: "silence" },
    ]);
    const controller = new AbortController();
    const events: ProviderEvent[] = [];
    for await (const event of claude.stream(chatRequest(hi, { signal: controller.signal }))) {
      events.push(event);
      controller.abort();
    }
    expect(errorOf(events)).toMatchObject({ kind: "aborted", message: "Request cancelled." });
  });

  test("a server that cannot be reached is a network error naming the URL", async ({ home }) => {
    const gone = await startAnthropicServer([]);
    await gone.close();
    const config = resolveProviderConfig("anthropic", {
      env: { ANTHROPIC_BASE_URL: gone.url, ANTHROPIC_API_KEY: "k" },
      home,
      codingMode: false,
      nonInteractive: false,
    });
    const error = errorOf(await collect(new AnthropicProvider(config).stream(chatRequest(hi))));
    expect(error.kind).toBe("network");
    expect(error.message).toBe(
      `Cannot reach anthropic at ${gone.url}: connect ECONNREFUSED ${gone.url.slice(7)}. Check the URL and your ` +
        "network.",
    );
  });
});

describe("images", () => {
  test("sends images as base64 image blocks, in a tool result's content too", async ({ anthropic }) => {
    const { claude, server } = await anthropic([{ message: { text: "A red square." } }]);
    await collect(claude.stream(chatRequest(conversationWithImages())));
    const [user, , results] = server.requests[0]!.body.messages as Array<{ content: unknown[] }>;
    const image = (media_type: string, data: string) => ({
      type: "image",
      source: { type: "base64", media_type, data },
    });
    const cached = { cache_control: { type: "ephemeral" } };
    expect(user!.content).toEqual([
      image("image/png", PNG_BASE64()),
      { type: "text", text: "what is this?", ...cached },
    ]);
    expect(results!.content).toEqual([
      {
        type: "tool_result",
        tool_use_id: "call_1",
        content: [{ type: "text", text: "b.jpg: JPEG, 3×2, 761 B" }, image("image/jpeg", JPEG_BASE64())],
        ...cached,
      },
    ]);
  });
});
