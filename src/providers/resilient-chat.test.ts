import { test as base, describe, expect } from "../../tests/support/fixtures.js";
import type { LlmServer, Script } from "../../tests/support/llm-server.js";
import { collect } from "../../tests/support/provider-stream.js";
import { ScriptedChat } from "../../tests/support/scripted-chat.js";
import { scriptedCopilot } from "../../tests/support/scripted-copilot.js";
import { scriptedConfig } from "../../tests/support/test-session.js";
import { ChatCompletionsProvider } from "./chat-completions/index.js";
import { copilotFallback } from "./copilot-fallback.js";
import { ProviderError } from "./provider-error.js";
import { MAX_RETRIES, type ResilienceOptions, resilientChat } from "./resilient-chat.js";
import type { ChatRequest, LLMProvider, LLMResponse, ProviderEvent, ProviderFailure } from "./types.js";

/** `providerFor(script)`: the OpenAI-compatible adapter talking to a scripted server started for this test. */
const test = base.extend<{
  providerFor: (script: Script[]) => Promise<{ provider: LLMProvider; server: LlmServer }>;
}>({
  providerFor: async ({ llm, home }, use) =>
    use(async (script) => {
      const server = await llm(script);
      return { provider: new ChatCompletionsProvider(scriptedConfig(server.url, home)), server };
    }),
});

function request(signal?: AbortSignal): ChatRequest {
  return { messages: [{ role: "user", content: "hi" }], tools: [], signal };
}

/** The failure `stream` ends with; `deltas` receives the text it yielded first. */
async function failure(stream: AsyncIterable<ProviderEvent>, deltas: string[] = []): Promise<ProviderFailure> {
  const { text, error } = await collect(stream);
  deltas.push(...text);
  expect(error).toBeInstanceOf(ProviderError);
  return error!;
}

async function answer(stream: AsyncIterable<ProviderEvent>): Promise<LLMResponse> {
  const { response, error } = await collect(stream);
  expect(error).toBeUndefined();
  return response!;
}

function chatWith(provider: LLMProvider, notices: string[], options: Partial<ResilienceOptions> = {}) {
  return resilientChat(provider, {
    notice: (text) => notices.push(text),
    transientBackoffSeconds: [0.01, 0.01],
    ...options,
  });
}

const sse = (...payloads: unknown[]) => payloads.map((payload) => `data: ${JSON.stringify(payload)}\n\n`).join("");
const contentChunk = (text: string) => ({
  id: "c",
  object: "chat.completion.chunk",
  created: 1,
  model: "gpt-4o-mini",
  choices: [{ index: 0, delta: { content: text }, finish_reason: null }],
});

describe("rate limits (429)", () => {
  test("waits as long as Retry-After says, with a notice, then retries", async ({ providerFor }) => {
    const { provider, server } = await providerFor([
      { status: 429, headers: { "retry-after-ms": "250" } },
      { text: "after the wait" },
    ]);
    const notices: string[] = [];
    const started = Date.now();
    const response = await answer(chatWith(provider, notices)(request()));
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    expect(response).toMatchObject({ content: "after the wait", provider: "openai-compat" });
    expect(notices).toEqual(["⚠️ Rate limited by openai-compat. Waiting 0.3s before retry 1 of 2…"]);
    expect(server.requests).toHaveLength(2);
  });

  test("honours Retry-After in seconds instead of the 30 s default", async ({ providerFor }) => {
    const { provider } = await providerFor([{ status: 429, headers: { "retry-after": "0" } }, { text: "ok" }]);
    const notices: string[] = [];
    expect((await answer(chatWith(provider, notices)(request()))).content).toBe("ok");
    expect(notices).toEqual(["⚠️ Rate limited by openai-compat. Waiting 0s before retry 1 of 2…"]);
  });

  test("gives up after two retries with the server's message", async ({ providerFor }) => {
    const limited = { status: 429, headers: { "retry-after": "0" }, body: { error: { message: "quota exceeded" } } };
    const { provider, server } = await providerFor([limited, limited, limited, { text: "never reached" }]);
    const notices: string[] = [];
    const error = await failure(chatWith(provider, notices)(request()));
    expect(MAX_RETRIES).toBe(2);
    expect(server.requests).toHaveLength(3);
    expect(notices).toHaveLength(2);
    expect(error.kind).toBe("rate_limit");
    expect(error.message).toBe("openai-compat rate limit (HTTP 429): quota exceeded");
  });

  test("fails fast when the server asks for a very long wait", async ({ providerFor }) => {
    const { provider, server } = await providerFor([{ status: 429, headers: { "retry-after": "3600" } }]);
    const error = await failure(chatWith(provider, [])(request()));
    expect(error.message).toContain("(the server asks to wait 3600s; not waiting that long)");
    expect(server.requests).toHaveLength(1);
  });

  test("stops waiting when the request is cancelled", async ({ providerFor }) => {
    const { provider } = await providerFor([{ status: 429, headers: { "retry-after": "60" } }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("cancelled by the user")), 50);
    const started = Date.now();
    expect(await failure(chatWith(provider, [])(request(controller.signal)))).toMatchObject({ kind: "aborted" });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe("server and network errors", () => {
  test("retries a 5xx briefly and succeeds", async ({ providerFor }) => {
    const { provider, server } = await providerFor([{ status: 503 }, { text: "recovered" }]);
    const notices: string[] = [];
    expect((await answer(chatWith(provider, notices)(request()))).content).toBe("recovered");
    expect(server.requests).toHaveLength(2);
    expect(notices[0]).toMatch(/^⚠️ openai-compat server error \(HTTP 503\): .*Waiting 0\.0s before retry 1 of 2…$/);
    expect(notices[0]).not.toMatch(/\.\. Waiting/);
  });

  test("retries an error sent inside the stream before any text", async ({ providerFor }) => {
    const { provider, server } = await providerFor([
      { rawSse: sse({ error: { message: "overloaded" } }) },
      { text: "second try" },
    ]);
    expect((await answer(chatWith(provider, [])(request()))).content).toBe("second try");
    expect(server.requests).toHaveLength(2);
  });

  test("never retries once text has been streamed (it would be shown twice)", async ({ providerFor }) => {
    const { provider, server } = await providerFor([
      { rawSse: sse(contentChunk("Hello"), { error: { message: "overloaded" } }) },
      { text: "Hello again" },
    ]);
    const deltas: string[] = [];
    const error = await failure(chatWith(provider, [])(request()), deltas);
    expect(deltas).toEqual(["Hello"]);
    expect(error).toMatchObject({ kind: "server", partialOutput: true });
    expect(error.message).toContain("overloaded");
    expect(server.requests).toHaveLength(1);
  });

  test("does not retry a cut stream", async ({ providerFor }) => {
    const { provider, server } = await providerFor([
      { cut: { text: "partial answer here", afterChunks: 2 } },
      { text: "unused" },
    ]);
    const error = await failure(chatWith(provider, [])(request()));
    expect(error.partialOutput).toBe(true);
    expect(server.requests).toHaveLength(1);
  });
});

describe("the Copilot fallback", () => {
  test("answers with the fallback when the primary refuses the key and the fallback is usable", async ({
    providerFor,
  }) => {
    const { provider } = await providerFor([{ status: 401, body: { error: { message: "Invalid API key" } } }]);
    const { provider: fallback, server: fallbackServer } = await providerFor([{ text: "from the fallback" }]);
    const notices: string[] = [];
    const response = await answer(chatWith(provider, notices, { fallback: async () => fallback })(request()));
    expect(response.content).toBe("from the fallback");
    expect(fallbackServer.requests).toHaveLength(1);
    expect(notices).toEqual([
      expect.stringMatching(
        /^⚠️ openai-compat refused the API key \(HTTP 401\): Invalid API key\. Check OPENAI_COMPAT_API_KEY \(or ~\/\.ssh\/OPENAI_COMPAT_API_KEY\)\. — falling back to Copilot\.$/,
      ),
    ]);
  });

  test("reports the original error when Copilot is not usable", async ({ providerFor }) => {
    const { provider } = await providerFor([{ status: 401, body: { error: { message: "Invalid API key" } } }]);
    const error = await failure(chatWith(provider, [], { fallback: async () => undefined })(request()));
    expect(error.kind).toBe("auth");
    expect(error.message).toContain("Check OPENAI_COMPAT_API_KEY (or ~/.ssh/OPENAI_COMPAT_API_KEY).");
  });

  test("never falls back (or retries) when the user cancels before any text arrived", async ({ providerFor }) => {
    // The stream starts, then stalls before any text.
    const { provider, server } = await providerFor([{ stall: { text: "" } }]);
    let asked = false;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await failure(
      chatWith(provider, [], {
        fallback: async () => {
          asked = true;
          return undefined;
        },
      })(request(controller.signal)),
    );
    expect(error).toMatchObject({ kind: "aborted", partialOutput: false });
    expect(asked).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  test("does not fall back on a bad request, which another provider would reject too", async ({ providerFor }) => {
    const { provider } = await providerFor([{ status: 400, body: { error: { message: "messages: invalid" } } }]);
    let asked = false;
    const error = await failure(
      chatWith(provider, [], {
        fallback: async () => {
          asked = true;
          return undefined;
        },
      })(request()),
    );
    expect(error.kind).toBe("bad_request");
    expect(asked).toBe(false);
  });
});

describe("the Copilot fallback and local endpoints", () => {
  /** Copilot as usable as it gets: a GitHub token and the scripted runtime, which logs every request it receives. */
  async function usableCopilot(dir: string, setting?: string) {
    const copilot = await scriptedCopilot(dir, [{ text: "from Copilot" }]);
    const env = { ...copilot.env, GH_TOKEN: "gho_test", ...(setting ? { MARVIN_COPILOT_FALLBACK: setting } : {}) };
    const fallback = copilotFallback({ env, home: dir, nonInteractive: true });
    return { copilot, fallback };
  }

  /** A local OpenAI-compatible server on 127.0.0.1 that has stopped: every request is refused. */
  async function stoppedLocalProvider(llm: (script: Script[]) => Promise<LlmServer>, home: string) {
    const server = await llm([]);
    await server.close();
    return new ChatCompletionsProvider(scriptedConfig(server.url, home));
  }

  test("a local provider's conversation never reaches Copilot by default", async ({ llm, home, tempDirs }) => {
    const provider = await stoppedLocalProvider(llm, home);
    const { copilot, fallback } = await usableCopilot(await tempDirs.make());
    const notices: string[] = [];
    const error = await failure(chatWith(provider, notices, { fallback })(request()));
    expect(provider.local).toBe(true);
    expect(error.kind).toBe("network");
    expect(notices.some((notice) => notice.includes("falling back"))).toBe(false);
    expect(await copilot.calls()).toEqual([]);
  });

  test("MARVIN_COPILOT_FALLBACK=on lets Copilot answer for a local provider", async ({ llm, home, tempDirs }) => {
    const provider = await stoppedLocalProvider(llm, home);
    const { copilot, fallback } = await usableCopilot(await tempDirs.make(), "on");
    const notices: string[] = [];
    try {
      const response = await answer(chatWith(provider, notices, { fallback })(request()));
      expect(response).toMatchObject({ content: "from Copilot", provider: "copilot" });
      expect(notices.at(-1)).toMatch(/— falling back to Copilot\.$/);
      expect((await copilot.prompts()).map((sent) => sent.prompt)).toEqual(["hi"]);
    } finally {
      await (await fallback?.(provider))?.destroy();
    }
  }, 40_000);

  test("a provider on the internet falls back by default; MARVIN_COPILOT_FALLBACK=off turns that off", async ({
    tempDirs,
  }) => {
    const refused = () => new ScriptedChat([{ error: { kind: "auth", message: "openai refused the API key" } }]);
    const off = await usableCopilot(await tempDirs.make(), "off");
    expect(off.fallback).toBeUndefined();
    expect((await failure(chatWith(refused(), [], { fallback: off.fallback })(request()))).kind).toBe("auth");

    const remote = refused();
    const { copilot, fallback } = await usableCopilot(await tempDirs.make());
    try {
      expect((await answer(chatWith(remote, [], { fallback })(request()))).content).toBe("from Copilot");
      expect(await copilot.prompts()).toHaveLength(1);
    } finally {
      await (await fallback?.(remote))?.destroy();
    }
  }, 40_000);
});
