import { test as base, describe, expect } from "../../../tests/support/fixtures.js";
import { conversationWithImages, JPEG_BASE64, PNG_BASE64 } from "../../../tests/support/images.js";
import {
  type OllamaModel,
  type OllamaReply,
  type OllamaServer,
  ollamaDone,
  ollamaLine,
  startOllamaServer,
} from "../../../tests/support/ollama-server.js";
import { chatRequest, errorOf, eventLines, LOOKUP_TOOL } from "../../../tests/support/provider-stream.js";
import type { Env } from "../../shared/env.js";
import { resolveProviderConfig } from "../config.js";
import { createProvider } from "../create.js";
import { finalAnswer } from "../final-answer.js";
import { countTextTokens } from "../token-counter.js";
import type { ChatRequest, LLMProvider, Message, ProviderEvent } from "../types.js";

type StreamingProvider = LLMProvider & { stream(request: ChatRequest): AsyncIterable<ProviderEvent> };

interface Ollama {
  server: OllamaServer;
  /** A new adapter for the server (as after `!model`), sharing what Marvin learned about the model this run. */
  adapter(env?: Env): Promise<StreamingProvider>;
}

/** `ollama(script, model, env)`: a scripted Ollama server started for this test, and adapters talking to it. */
const test = base.extend<{ ollama: (script: OllamaReply[], model?: OllamaModel) => Promise<Ollama> }>({
  ollama: async ({ home, httpServers }, use) =>
    use(async (script, model = {}) => {
      const server = httpServers.adopt(await startOllamaServer(script, model));
      const adapter = async (env: Env = {}) => {
        const fullEnv = { OLLAMA_URL: server.origin, OLLAMA_MODEL: "llama-test", ...env };
        const config = resolveProviderConfig("ollama", { env: fullEnv, home, codingMode: false, nonInteractive: true });
        return (await createProvider(config, fullEnv)) as StreamingProvider;
      };
      return { server, adapter };
    }),
});

describe("answers", () => {
  test("streams thinking as reasoning and content as text, with Ollama's counts", async ({ ollama }) => {
    const { server, adapter } = await ollama([
      {
        lines: [
          ollamaLine({ thinking: "Simple." }),
          ollamaLine({ content: "Hello" }),
          ollamaLine({ content: " there." }),
          ollamaDone("stop", 42, 7),
        ],
      },
    ]);
    const { seen, last } = await eventLines((await adapter()).stream(chatRequest()));
    expect(seen).toEqual(["reasoning_delta Simple.", "text_delta Hello", "text_delta  there."]);
    expect(last).toMatchObject({
      type: "done",
      response: {
        content: "Hello there.",
        reasoning: "Simple.",
        finishReason: "stop",
        usage: { promptTokens: 42, completionTokens: 7 },
      },
    });
    const [sent] = server.chats();
    expect(sent).toMatchObject({ model: "llama-test", stream: true, messages: [{ role: "user", content: "hi" }] });
    expect(sent!.think).toBeUndefined();
  });

  test("takes tool calls sent whole in one line, and sends them back with their results named", async ({ ollama }) => {
    const { server, adapter } = await ollama([
      {
        lines: [
          ollamaLine({
            tool_calls: [
              { function: { name: "lookup", arguments: { word: "towel" } } },
              { function: { name: "lookup", arguments: { word: "babel" } } },
            ],
          }),
          ollamaDone("stop"),
        ],
      },
      { lines: [ollamaLine({ content: "Both found." }), ollamaDone("stop")] },
    ]);
    const provider = await adapter();
    const messages: Message[] = [{ role: "user", content: "look them up" }];
    const { seen, last } = await eventLines(provider.stream(chatRequest(messages, { tools: [LOOKUP_TOOL] })));
    expect(seen).toEqual(["tool_call_start 0 lookup", "tool_call_start 1 lookup"]);
    const first = (last as Extract<ProviderEvent, { type: "done" }>).response;
    expect(first.finishReason).toBe("tool_calls");
    expect(first.toolCalls.map((call) => call.function.arguments)).toEqual(['{"word":"towel"}', '{"word":"babel"}']);
    messages.push(
      { role: "assistant", content: first.content || null, tool_calls: first.toolCalls },
      { role: "tool", tool_call_id: first.toolCalls[0]!.id, content: "a towel" },
      { role: "tool", tool_call_id: first.toolCalls[1]!.id, content: "a fish" },
    );
    expect((await finalAnswer(provider.stream(chatRequest(messages, { tools: [LOOKUP_TOOL] })))).content).toBe(
      "Both found.",
    );
    const second = server.chats()[1]!;
    expect(second.tools?.map((tool) => tool.function.name)).toEqual(["lookup"]);
    expect(second.messages.slice(1)).toEqual([
      {
        role: "assistant",
        content: "",
        tool_calls: [
          { function: { name: "lookup", arguments: { word: "towel" } } },
          { function: { name: "lookup", arguments: { word: "babel" } } },
        ],
      },
      { role: "tool", content: "a towel", tool_name: "lookup" },
      { role: "tool", content: "a fish", tool_name: "lookup" },
    ]);
  });

  test("says when done_reason is length: the answer is cut short", async ({ ollama }) => {
    const { adapter } = await ollama([{ lines: [ollamaLine({ content: "one, two" }), ollamaDone("length")] }]);
    const { seen, last } = await eventLines((await adapter()).stream(chatRequest()));
    expect(seen.at(-1)).toBe(
      'notice Ollama stopped the answer at its length limit (done_reason "length"): it is cut short.',
    );
    expect(last).toMatchObject({ type: "done", response: { content: "one, two", finishReason: "length" } });
  });
});

describe("the window (num_ctx)", () => {
  const answer: OllamaReply = { lines: [ollamaLine({ content: "ok" }), ollamaDone()] };

  test("holds the whole request and room for the answer, grows as the conversation does, never shrinks", async ({
    ollama,
  }) => {
    const { server, adapter } = await ollama([answer, answer, answer]);
    const provider = await adapter();
    const long = "The quick brown fox jumps over the lazy dog. ".repeat(2_000);
    const messages: Message[] = [{ role: "user", content: long }];
    await finalAnswer(provider.stream(chatRequest(messages, { tools: [LOOKUP_TOOL] })));
    messages.push({ role: "assistant", content: "ok" }, { role: "user", content: long.repeat(2) });
    await finalAnswer(provider.stream(chatRequest(messages, { tools: [LOOKUP_TOOL] })));
    await finalAnswer(provider.stream(chatRequest([{ role: "user", content: "short" }])));
    const windows = server.chats().map((body) => body.options?.num_ctx ?? 0);
    const firstTokens = await countTextTokens(long);
    expect(windows[0]).toBeGreaterThanOrEqual(firstTokens + 8_192);
    expect(windows[1]).toBeGreaterThanOrEqual(firstTokens * 3 + 8_192);
    expect(windows.map((window) => Math.log2(window) % 1)).toEqual([0, 0, 0]); // powers of two
    expect(windows[1]).toBeGreaterThan(windows[0]!);
    expect(windows[2]).toBe(windows[1]);
  });

  test("stays within the model's own maximum, says so once, and asks /api/show once per model per run", async ({
    ollama,
  }) => {
    const { server, adapter } = await ollama([answer, answer, answer], { contextLength: 16_384 });
    const big: Message[] = [{ role: "user", content: "All work and no play makes Jack a dull boy. ".repeat(1_500) }];
    const first = await eventLines((await adapter()).stream(chatRequest(big)));
    const second = await eventLines((await adapter()).stream(chatRequest(big)));
    await eventLines((await adapter({ OLLAMA_MODEL: "llama-test" })).stream(chatRequest()));
    expect(server.chats().map((body) => body.options?.num_ctx)).toEqual([16_384, 16_384, 16_384]);
    expect(first.seen[0]).toMatch(
      /^notice Ollama model 'llama-test' holds at most 16,384 tokens, but this conversation needs about [\d,]+ with room for the answer: Ollama will drop its oldest part\./,
    );
    expect(second.seen.filter((line) => line.startsWith("notice"))).toEqual([]);
    expect(server.count("/api/show")).toBe(1);
  });
});

describe("thinking", () => {
  const answer: OllamaReply = { lines: [ollamaLine({ content: "ok" }), ollamaDone()] };

  test("sends think from the thinking level to a model that can think, and nothing to one that cannot", async ({
    ollama,
  }) => {
    const thinker = await ollama([answer, answer, answer], { capabilities: ["completion", "tools", "thinking"] });
    const provider = await thinker.adapter();
    await finalAnswer(provider.stream(chatRequest(undefined, { thinking: "high" })));
    await finalAnswer(provider.stream(chatRequest(undefined, { thinking: "off" })));
    await finalAnswer(provider.stream(chatRequest()));
    expect(thinker.server.chats().map((body) => body.think)).toEqual([true, false, undefined]);

    const levels = await ollama([answer], { capabilities: ["completion", "tools", "thinking"] });
    await finalAnswer(
      (await levels.adapter({ OLLAMA_MODEL: "gpt-oss:20b" })).stream(chatRequest(undefined, { thinking: "medium" })),
    );
    expect(levels.server.chats()[0]!.think).toBe("medium");

    const plain = await ollama([answer], { capabilities: ["completion", "tools"] });
    await finalAnswer((await plain.adapter()).stream(chatRequest(undefined, { thinking: "high" })));
    expect(plain.server.chats()[0]!.think).toBeUndefined();
  });
});

describe("errors", () => {
  test("an error line mid-stream ends the answer with Ollama's words, keeping the text before it", async ({
    ollama,
  }) => {
    const { adapter } = await ollama([
      {
        lines: [
          ollamaLine({ content: "Par" }),
          { error: "an error was encountered while running the model: unexpected EOF" },
        ],
      },
    ]);
    const error = errorOf((await eventLines((await adapter()).stream(chatRequest()))).last);
    expect(error).toMatchObject({ kind: "server", partialOutput: true });
    expect(error.message).toBe(
      "Ollama reported an error mid-answer: an error was encountered while running the model: unexpected EOF",
    );
  });

  test("a model that is not pulled says how to get it", async ({ ollama }) => {
    const { server, adapter } = await ollama([], { status: 404 });
    const error = errorOf((await eventLines((await adapter()).stream(chatRequest()))).last);
    expect(error.kind).toBe("bad_request");
    expect(error.message).toBe(
      `Ollama at ${server.origin} has no model 'llama-test' (model "llama-test" not found). Run \`ollama pull ` +
        "llama-test`, or set OLLAMA_MODEL to one that `ollama list` shows.",
    );
    expect(server.chats()).toEqual([]);
  });

  test("a model without tool support is named as such", async ({ ollama }) => {
    const { adapter } = await ollama([
      { status: 400, error: "registry.ollama.ai/library/llama-test does not support tools" },
    ]);
    const error = errorOf(
      (await eventLines((await adapter()).stream(chatRequest(undefined, { tools: [LOOKUP_TOOL] })))).last,
    );
    expect(error.message).toMatch(
      /^Ollama model 'llama-test' cannot call tools \(.*\)\. Choose a model with tool support/,
    );
  });

  test("a server that is not running is reported as unreachable", async ({ ollama }) => {
    const { server, adapter } = await ollama([]);
    await server.close();
    const error = errorOf((await eventLines((await adapter()).stream(chatRequest()))).last);
    expect(error.kind).toBe("network");
    expect(error.message).toMatch(
      new RegExp(`^Cannot reach ollama at ${server.origin.replace(/\./g, "\\.")}: .*ECONNREFUSED`),
    );
  });
});

describe("images", () => {
  test("sends images base64 on the message, a tool result's on a user message after it; asks /api/show", async ({
    ollama,
  }) => {
    const { server, adapter } = await ollama([{ lines: [ollamaLine({ content: "Red." }), ollamaDone("stop")] }], {
      capabilities: ["completion", "vision"],
    });
    const provider = await adapter({ OLLAMA_MODEL: "some-vision-model" });
    expect(await provider.readsImages?.()).toBe(true);
    await eventLines(provider.stream(chatRequest(conversationWithImages())));
    const { messages } = server.chats()[0] as unknown as { messages: Array<Record<string, unknown>> };
    expect(messages.slice(1)).toEqual([
      { role: "user", content: "what is this?", images: [PNG_BASE64()] },
      {
        role: "assistant",
        content: "",
        tool_calls: [{ function: { name: "read_file", arguments: { path: "b.jpg" } } }],
      },
      { role: "tool", content: "b.jpg: JPEG, 3×2, 761 B", tool_name: "read_file" },
      { role: "user", content: "The images the tool results above returned:", images: [JPEG_BASE64()] },
    ]);
  });

  test("a model whose /api/show lists no vision does not read images, whatever its name", async ({ ollama }) => {
    const { adapter } = await ollama([], { capabilities: ["completion", "tools"] });
    const provider = await adapter({ OLLAMA_MODEL: "llava:7b" });
    expect(await provider.readsImages?.()).toBe(false);
  });
});
