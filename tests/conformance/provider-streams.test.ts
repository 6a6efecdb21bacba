import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChatCompletionsProvider } from "../../src/providers/chat-completions/index.js";
import { resolveProviderConfig } from "../../src/providers/config.js";
import { ProviderError } from "../../src/providers/provider-error.js";
import type { LLMResponse, ToolCallStart } from "../../src/providers/types.js";
import { type LlmServer, type ScriptedReply, startLlmServer } from "../support/llm-server.js";
import { collect, failureOf } from "../support/provider-stream.js";
import { CONFORMANCE_DATA } from "../support/run-marvin.js";

const STREAMS = join(CONFORMANCE_DATA, "provider-streams");

/** `*.chunks.txt` holds one `data:` payload per line; OpenAI-style streams end with [DONE]. */
function chunksToSse(file: string): string {
  const lines = readFileSync(join(STREAMS, file), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "");
  return `${lines.map((line) => `data: ${line}\n\n`).join("")}data: [DONE]\n\n`;
}

function recording(file: string): ScriptedReply {
  return { rawSse: file.endsWith(".sse") ? readFileSync(join(STREAMS, file), "utf8") : chunksToSse(file) };
}

interface Expected {
  text?: string | { length: number; start: string; end: string };
  toolCalls?: Array<{ id: string; name: string; arguments: string }>;
  finish: LLMResponse["finishReason"];
  /** `cost`: what the service says the request cost (OpenRouter's usage accounting). */
  usage?: { prompt: number; completion: number; cached?: number; cost?: number } | null;
  reasoningStart?: string;
  reasoningLength?: number;
}

/** Expected parse results, from the README of the conformance folder. */
const CASES: Record<string, Expected> = {
  "simonw-llm/openai-chat-gpt-4o-mini-tool-call.sse": {
    text: "",
    toolCalls: [{ id: "call_1EYWDzueHEp8OsB8jJSEp7WB", name: "multiply", arguments: '{"a":1231,"b":2331}' }],
    finish: "tool_calls",
    usage: { prompt: 54, completion: 20, cached: 0 },
  },
  "simonw-llm/openai-chat-gpt-4o-mini-text-after-tool-result.sse": {
    text: "The result of \\( 1231 \\times 2331 \\) is \\( 2,869,461 \\).",
    toolCalls: [],
    finish: "stop",
    usage: { prompt: 87, completion: 26, cached: 0 },
  },
  "vercel-ai/openai-text.chunks.txt": {
    text: {
      length: 1724,
      start: "**Holiday Name:** Harmony Day\n\n**Date:**",
      end: "connected through shared human experiences and mutual respect.",
    },
    toolCalls: [],
    finish: "stop",
    usage: { prompt: 16, completion: 300, cached: 0 },
  },
  "vercel-ai/azure-model-router.1.chunks.txt": {
    text: "Capital of Denmark.",
    toolCalls: [],
    finish: "stop",
    usage: { prompt: 15, completion: 78, cached: 0 },
  },
  "vercel-ai/groq-tool-call.chunks.txt": {
    toolCalls: [{ id: "tk85n1k4m", name: "weather", arguments: "{}" }],
    finish: "tool_calls",
    usage: { prompt: 210, completion: 15 },
  },
  "vercel-ai/groq-text.chunks.txt": {
    text: {
      length: 3189,
      start: 'Introducing "Luminaria" - a new holiday',
      end: "and a deeper appreciation for the magic of light.",
    },
    toolCalls: [],
    finish: "stop",
    usage: { prompt: 45, completion: 662 },
  },
  "vercel-ai/deepseek-tool-call.chunks.txt": {
    text: "",
    toolCalls: [
      { id: "call_00_ioIn7yN9p1ZOMNpDLwd4MgAF", name: "weather", arguments: '{"location": "San Francisco"}' },
    ],
    finish: "tool_calls",
    usage: { prompt: 339, completion: 83, cached: 320 },
    reasoningStart: "The user is asking for the weather in San Francisco.",
    reasoningLength: 191,
  },
  "vercel-ai/mistral-incremental-tool-call.chunks.txt": {
    toolCalls: [
      { id: "chatcmpl-tool-9f149c74c42f265b", name: "webSearchTool", arguments: '{"query": "current Berlin weather"}' },
    ],
    finish: "tool_calls",
    usage: { prompt: 171, completion: 14, cached: 128 },
  },
  "vercel-ai/anthropic-fallback-tool-call.sse": {
    text: "Reading it.",
    toolCalls: [{ id: "toolu_sanitized", name: "read_file", arguments: '{"path": "a.txt"}' }],
    finish: "tool_calls",
    usage: null,
  },
  "simonw-llm/openrouter-kimi-k2-tool-call-no-args.sse": {
    toolCalls: [{ id: "llm_version:0", name: "llm_version", arguments: "{}" }],
    finish: "tool_calls",
    usage: { prompt: 56, completion: 12, cached: 0, cost: 0.000_059_52 },
  },
};

const files = Object.keys(CASES);

describe("OpenAI-style provider streams recorded from real APIs", () => {
  let server: LlmServer;
  interface Parsed {
    response: LLMResponse;
    deltas: string[];
    reasoning: string[];
    starts: ToolCallStart[];
  }
  const byFile = new Map<string, Parsed>();

  beforeAll(async () => {
    server = await startLlmServer([
      ...files.map(recording),
      {
        status: 400,
        body: JSON.parse(readFileSync(join(STREAMS, "vercel-ai/reasoning-model-legacy-parameter-error.json"), "utf8")),
      },
    ]);
    const env = { OPENAI_COMPAT_URL: `${server.url}/chat/completions`, OPENAI_COMPAT_API_KEY: "test-key" };
    const provider = new ChatCompletionsProvider(
      resolveProviderConfig("openai-compat", { env, home: "/nonexistent", codingMode: false, nonInteractive: true }),
    );
    for (const file of files) {
      const streamed = await collect(provider.stream({ messages: [{ role: "user", content: file }], tools: [] }));
      const { text: deltas, reasoning, starts } = streamed;
      if (!streamed.response) throw new Error(`${file}: ${streamed.error?.message}`);
      byFile.set(file, { response: streamed.response, deltas, reasoning, starts });
    }
  });
  afterAll(() => server.close());

  it.each(files)("%s parses to the expected text, tool calls, finish reason and usage", (file) => {
    const expected = CASES[file]!;
    const { response, deltas } = byFile.get(file)!;
    const text = expected.text;
    if (typeof text === "string") expect(response.content).toBe(text);
    else if (text) {
      expect(response.content).toHaveLength(text.length);
      expect(response.content.startsWith(text.start)).toBe(true);
      expect(response.content.endsWith(text.end)).toBe(true);
    }
    expect(deltas.join("")).toBe(response.content);
    if (expected.toolCalls) {
      expect(
        response.toolCalls.map((call) => ({
          id: call.id,
          name: call.function.name,
          arguments: call.function.arguments,
        })),
      ).toEqual(expected.toolCalls);
    }
    expect(response.finishReason).toBe(expected.finish);
    if (expected.usage === null) expect(response.usage).toBeUndefined();
    else if (expected.usage)
      expect(response.usage).toEqual({
        promptTokens: expected.usage.prompt,
        completionTokens: expected.usage.completion,
        ...(expected.usage.cached === undefined ? {} : { cachedTokens: expected.usage.cached }),
        ...(expected.usage.cost === undefined ? {} : { costUsd: expected.usage.cost }),
      });
    if (expected.reasoningStart) {
      expect(response.reasoning?.startsWith(expected.reasoningStart)).toBe(true);
      expect(response.reasoning).toHaveLength(expected.reasoningLength!);
    }
  });

  it.each(files)("%s streams its reasoning and announces each tool call once, as it ends up", (file) => {
    const { response, reasoning, starts } = byFile.get(file)!;
    expect(reasoning.join("")).toBe(response.reasoning ?? "");
    const announced = starts.map((start) => ({ id: start.id, name: start.name }));
    expect(announced).toEqual(response.toolCalls.map((call) => ({ id: call.id, name: call.function.name })));
  });

  it("hears DeepSeek's reasoning delta by delta", () => {
    expect(byFile.get("vercel-ai/deepseek-tool-call.chunks.txt")!.reasoning).toHaveLength(39);
  });

  it("turns the recorded 400 error body into a bad-request error that keeps the API's explanation", async () => {
    const env = { OPENAI_COMPAT_URL: server.url, OPENAI_COMPAT_API_KEY: "test-key" };
    const provider = new ChatCompletionsProvider(
      resolveProviderConfig("openai-compat", { env, home: "/nonexistent", codingMode: false, nonInteractive: true }),
    );
    const failure = await failureOf(provider.stream({ messages: [{ role: "user", content: "hi" }], tools: [] }));
    expect(failure).toBeInstanceOf(ProviderError);
    expect(failure.kind).toBe("bad_request");
    expect(failure.message).toMatch(/max_completion_tokens/);
  });
});
