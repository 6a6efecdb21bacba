import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "../../../tests/support/fixtures.js";
import { OPENROUTER_ERRORS, openRouterAnswer } from "../../../tests/support/openrouter-wire.js";
import { collect } from "../../../tests/support/provider-stream.js";
import { REPO_ROOT } from "../../../tests/support/run-marvin.js";
import type { Env } from "../../shared/env.js";
import { resolveProviderConfig } from "../config.js";
import { createProvider } from "../create.js";
import type { ChatRequest } from "../types.js";
import { openRouterModelName } from "./model-names.js";

async function openRouterAt(url: string, home: string, env: Env = {}) {
  const settings = { OPENROUTER_BASE_URL: url, OPENROUTER_API_KEY: "sk-or-v1-test", ...env };
  const config = resolveProviderConfig("openrouter", { env: settings, home, codingMode: false, nonInteractive: false });
  return createProvider(config, settings);
}

const hello: ChatRequest = { messages: [{ role: "user", content: "hello" }], tools: [] };

describe("openrouter over its chat completions", () => {
  test("reads a stream with comment lines, taking the cost OpenRouter reports in its last chunk", async ({
    llm,
    home,
  }) => {
    const server = await llm([
      openRouterAnswer({
        reasoning: "A greeting.",
        text: "Hello there.",
        usage: { prompt: 1_200, completion: 9, cached: 1_024, cost: 0.000_812 },
      }),
    ]);
    const provider = await openRouterAt(server.url, home);
    const record = await collect(provider.stream({ ...hello, thinking: "low" }));
    expect(record.error).toBeUndefined();
    expect(record.text.join("")).toBe("Hello there.");
    expect(record.reasoning.join("")).toBe("A greeting.");
    expect(record.response!.usage).toEqual({
      promptTokens: 1_200,
      completionTokens: 9,
      cachedTokens: 1_024,
      costUsd: 0.000_812,
    });
    const [sent] = server.requests;
    expect(sent!.path).toBe("/v1/chat/completions");
    expect(sent!.headers).toMatchObject({
      authorization: "Bearer sk-or-v1-test",
      "http-referer": expect.stringMatching(/^https:\/\//),
      "x-title": "Marvin",
    });
    expect(sent!.body).toMatchObject({
      model: "anthropic/claude-sonnet-4.5",
      usage: { include: true },
      reasoning: { effort: "low" },
    });
    expect(sent!.body).not.toHaveProperty("reasoning_effort");
  });

  test("asks for no reasoning with effort none when thinking is off", async ({ llm, home }) => {
    const server = await llm([openRouterAnswer({ text: "ok" })]);
    const provider = await openRouterAt(server.url, home);
    expect((await collect(provider.stream({ ...hello, thinking: "off" }))).error).toBeUndefined();
    expect(server.requests[0]!.body).toMatchObject({ reasoning: { effort: "none" } });
  });

  test("reads the recorded OpenRouter stream of a tool call with its cost", async ({ llm, home }) => {
    const dir = join(REPO_ROOT, "tests/conformance/data/provider-streams/simonw-llm");
    const rawSse = await readFile(join(dir, "openrouter-kimi-k2-tool-call-no-args.sse"), "utf8");
    const server = await llm([{ rawSse }]);
    const provider = await openRouterAt(server.url, home, { OPENROUTER_MODEL: "kimi-k2" });
    const { response, error } = await collect(provider.stream(hello));
    expect(error).toBeUndefined();
    expect(server.requests[0]!.body.model).toBe("moonshotai/kimi-k2");
    expect(response).toMatchObject({
      finishReason: "tool_calls",
      toolCalls: [{ id: "llm_version:0", function: { name: "llm_version", arguments: "{}" } }],
      usage: { promptTokens: 56, completionTokens: 12, cachedTokens: 0, costUsd: 0.000_059_52 },
    });
  });

  test.for([
    ["noCredits", /^openrouter rejected the request \(HTTP 402\): Insufficient credits\..*no credits .*:free\)\.?$/],
    ["unknownModel", /is not a valid model ID\. OPENROUTER_MODEL takes OpenRouter's model names/],
    ["upstream", /^openrouter server error \(HTTP 502\): Provider returned error \(Anthropic said: .*Overloaded/],
  ] as const)("explains its %s error answer", async ([which, explained], { llm, home }) => {
    const server = await llm([OPENROUTER_ERRORS[which]]);
    const provider = await openRouterAt(server.url, home);
    const { error } = await collect(provider.stream(hello));
    expect(error?.message).toMatch(explained);
  });

  test("passes on an error OpenRouter reports mid-stream with the upstream provider's words", async ({ llm, home }) => {
    const chunk = {
      id: "gen-1",
      object: "chat.completion.chunk",
      model: "anthropic/claude-sonnet-4.5",
      provider: "Anthropic",
      error: {
        code: "server_error",
        message: "Provider disconnected unexpectedly",
        metadata: { raw: "socket hang up" },
      },
      choices: [{ index: 0, delta: { content: "" }, finish_reason: "error" }],
    };
    const server = await llm([{ rawSse: `: OPENROUTER PROCESSING\n\ndata: ${JSON.stringify(chunk)}\n\n` }]);
    const provider = await openRouterAt(server.url, home);
    const { error } = await collect(provider.stream(hello));
    expect(error).toMatchObject({ kind: "server" });
    expect(error!.message).toContain("Provider disconnected unexpectedly (the upstream provider said: socket hang up)");
  });
});

describe("openrouter's model names", () => {
  test("keeps OpenRouter's own names, and files Marvin's short names under their vendor", () => {
    expect(openRouterModelName("anthropic/claude-sonnet-4.5")).toBe("anthropic/claude-sonnet-4.5");
    expect(openRouterModelName("claude-sonnet-4-5-20250929")).toBe("anthropic/claude-sonnet-4.5");
    expect(openRouterModelName("claude-sonnet-4.5")).toBe("anthropic/claude-sonnet-4.5");
    expect(openRouterModelName("claude-3-7-sonnet-20250219")).toBe("anthropic/claude-3.7-sonnet");
    expect(openRouterModelName("gpt-5.1")).toBe("openai/gpt-5.1");
    expect(openRouterModelName("gemini-2.5-pro")).toBe("google/gemini-2.5-pro");
    expect(openRouterModelName("mistral-large-latest")).toBe("mistralai/mistral-large-latest");
    expect(openRouterModelName("my-own-model")).toBe("my-own-model");
  });
});
