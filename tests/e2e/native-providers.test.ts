import { countTextTokens } from "../../src/providers/token-counter.js";
import { test as base, describe, expect } from "../support/fixtures.js";
import {
  finishChunk,
  type GeminiReply,
  type GeminiServer,
  modelChunk,
  startGeminiServer,
} from "../support/gemini-server.js";
import {
  type OllamaReply,
  type OllamaServer,
  ollamaDone,
  ollamaLine,
  startOllamaServer,
} from "../support/ollama-server.js";
import { type MarvinRun, runMarvin, steadyTimings } from "../support/run-marvin.js";

type Run = (args: string[], stdin: string) => Promise<MarvinRun>;

/**
 * `gemini(script)` / `ollama(script)`: a scripted server of that API, and a `run` of the built `marvin` that
 * talks to it (nothing inherited but PATH).
 */
const test = base.extend<{
  gemini: (script: GeminiReply[]) => Promise<{ server: GeminiServer; run: Run }>;
  ollama: (script: OllamaReply[]) => Promise<{ server: OllamaServer; run: Run }>;
}>({
  gemini: async ({ home, httpServers }, use) =>
    use(async (script) => {
      const server = httpServers.adopt(await startGeminiServer(script));
      const env = {
        PATH: process.env.PATH,
        HOME: home,
        LLM_PROVIDER: "gemini",
        GEMINI_API_KEY: "gemini-test-key",
        GEMINI_BASE_URL: server.origin,
        GEMINI_MODEL: "gemini-3-pro-preview",
      };
      return { server, run: (args, stdin) => runMarvin(args, { env, cwd: home, stdin }) };
    }),
  ollama: async ({ home, httpServers }, use) =>
    use(async (script) => {
      const server = httpServers.adopt(await startOllamaServer(script, { contextLength: 131_072 }));
      const env = {
        PATH: process.env.PATH,
        HOME: home,
        LLM_PROVIDER: "ollama",
        OLLAMA_URL: server.origin,
        OLLAMA_MODEL: "llama-test",
      };
      return { server, run: (args, stdin) => runMarvin(args, { env, cwd: home, stdin }) };
    }),
});

const teaTimer = { name: "tea", duration_seconds: 120 };

describe("marvin with the native Gemini API", () => {
  test("holds a tool round and a second message, returning every thought signature where it came", async ({
    gemini,
  }) => {
    const { server, run } = await gemini([
      {
        chunks: [
          modelChunk([{ text: "Thinking about tea.", thought: true }]),
          modelChunk([
            { text: "Starting it." },
            { functionCall: { name: "timer_start", args: teaTimer }, thoughtSignature: "sig-call" },
          ]),
          finishChunk("STOP", { promptTokenCount: 2_000, candidatesTokenCount: 20, cachedContentTokenCount: 1_500 }),
        ],
      },
      {
        chunks: [
          modelChunk([{ text: "Your tea timer is running." }]),
          finishChunk("STOP", undefined, [{ text: "", thoughtSignature: "sig-end" }]),
        ],
      },
      { chunks: [modelChunk([{ text: "You're welcome." }]), finishChunk("STOP")] },
    ]);
    const result = await run(["--plain"], "start a tea timer\nthanks\n");
    expect(result.code).toBe(0);
    // The thought summary is shown as reasoning, on a line of its own before the answer (dim on a terminal).
    expect(steadyTimings(result.stdout)).toContain(
      '> start a tea timer\nThinking about tea.\n\nStarting it.\n  🔧 timer_start  "tea"\n' +
        "  ✓ timer_start  \"tea\" · …s · Countdown 'tea' started: 2m 00s.\nYour tea timer is running.\n" +
        "> thanks\nYou're welcome.\n",
    );
    for (const request of server.requests) {
      expect(request.headers["x-goog-api-key"]).toBe("gemini-test-key");
      expect(request.url).toBe("/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse");
    }
    const [, second, third] = server.bodies();
    const toolTurn = [
      {
        role: "model",
        parts: [
          { text: "Starting it." },
          { functionCall: { name: "timer_start", args: teaTimer }, thoughtSignature: "sig-call" },
        ],
      },
      {
        role: "user",
        parts: [
          {
            functionResponse: {
              name: "timer_start",
              response: { output: expect.stringContaining("Countdown 'tea' started") },
            },
          },
        ],
      },
    ];
    expect(second!.contents.slice(1)).toEqual(toolTurn);
    expect(third!.contents.slice(1, 4)).toEqual([
      ...toolTurn,
      { role: "model", parts: [{ text: "Your tea timer is running." }, { text: "", thoughtSignature: "sig-end" }] },
    ]);
    expect(third!.contents.at(-1)!.parts[0]!.text).toMatch(/thanks$/);
    expect(second!.tools![0]!.functionDeclarations.map((declaration) => declaration.name)).toContain("timer_start");
  });

  test("keeps thought signatures in a saved session, so a resumed tool conversation stays valid", async ({
    gemini,
  }) => {
    const { server, run } = await gemini([
      {
        chunks: [
          modelChunk([{ functionCall: { name: "timer_start", args: teaTimer }, thoughtSignature: "sig-saved" }]),
          finishChunk("STOP"),
        ],
      },
      { chunks: [modelChunk([{ text: "Started." }]), finishChunk("STOP")] },
      { chunks: [modelChunk([{ text: "Still going." }]), finishChunk("STOP")] },
    ]);
    const args = ["--non-interactive", "--session", "tea-42", "--prompt"];
    expect((await run([...args, "start a tea timer"], "")).code).toBe(0);
    const again = await run([...args, "is it still going?"], "");
    expect(again.code).toBe(0);
    expect(again.stdout).toBe("Still going.\n");
    const resumed = server.bodies()[2]!.contents;
    expect(resumed[1]).toEqual({
      role: "model",
      parts: [{ functionCall: { name: "timer_start", args: teaTimer }, thoughtSignature: "sig-saved" }],
    });
  });

  test("says when an answer was cut at the output limit", async ({ gemini }) => {
    const { run } = await gemini([{ chunks: [modelChunk([{ text: "One, two" }]), finishChunk("MAX_TOKENS")] }]);
    const result = await run(["--non-interactive", "--prompt", "count to a million"], "");
    expect(result.stdout).toBe("One, two\n");
    expect(result.stderr).toContain("Gemini reached its output limit (MAX_TOKENS): the answer is cut short.");
  });

  test("explains a safety stop to the person", async ({ gemini }) => {
    const { run } = await gemini([{ chunks: [finishChunk("SAFETY")] }]);
    const result = await run(["--non-interactive", "--prompt", "something risky"], "");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("Gemini stopped the answer because its safety filter flagged the answer (SAFETY).");
  });
});

describe("marvin with the native Ollama API", () => {
  test("holds a tool round and a second message, each request with a window that fits it", async ({ ollama }) => {
    const { server, run } = await ollama([
      {
        lines: [
          ollamaLine({ thinking: "A timer, then." }),
          ollamaLine({ content: "Starting it." }),
          ollamaLine({ tool_calls: [{ function: { name: "timer_start", arguments: teaTimer } }] }),
          ollamaDone("stop"),
        ],
      },
      { lines: [ollamaLine({ content: "Your tea timer is running." }), ollamaDone("stop")] },
      { lines: [ollamaLine({ content: "You're welcome." }), ollamaDone("stop")] },
    ]);
    const result = await run(["--plain"], "start a tea timer\nthanks\n");
    expect(result.code).toBe(0);
    expect(steadyTimings(result.stdout)).toContain(
      '> start a tea timer\nA timer, then.\n\nStarting it.\n  🔧 timer_start  "tea"\n' +
        "  ✓ timer_start  \"tea\" · …s · Countdown 'tea' started: 2m 00s.\nYour tea timer is running.\n" +
        "> thanks\nYou're welcome.\n",
    );
    const chats = server.chats();
    expect(chats).toHaveLength(3);
    expect(chats[1]!.messages.slice(-2)).toEqual([
      {
        role: "assistant",
        content: "Starting it.",
        tool_calls: [{ function: { name: "timer_start", arguments: teaTimer } }],
      },
      { role: "tool", content: expect.stringContaining("Countdown 'tea' started"), tool_name: "timer_start" },
    ]);
    expect(chats[2]!.messages.at(-1)!.content).toMatch(/thanks$/);
    for (const chat of chats) {
      const sent = await countTextTokens(JSON.stringify(chat.messages) + JSON.stringify(chat.tools ?? []));
      expect(chat.options!.num_ctx).toBeGreaterThanOrEqual(sent);
      expect(chat.options!.num_ctx).toBeLessThanOrEqual(131_072);
    }
    expect(server.count("/api/show")).toBe(1);
  });

  test("tells the person to pull a model Ollama does not have", async ({ httpServers, home }) => {
    const server = httpServers.adopt(await startOllamaServer([], { status: 404 }));
    const env = {
      PATH: process.env.PATH,
      HOME: home,
      LLM_PROVIDER: "ollama",
      OLLAMA_URL: server.origin,
      OLLAMA_MODEL: "qwen9:7b",
    };
    const result = await runMarvin(["--non-interactive", "--prompt", "hi"], { env, cwd: home });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("Run `ollama pull qwen9:7b`");
  });
});
