import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type LlmServer, type Script, startLlmServer } from "../../tests/support/llm-server.js";
import { scriptedConfig, TempDirs } from "../../tests/support/test-session.js";
import { OpenAICompatibleProvider } from "./openai-compatible/index.js";
import { ProviderError } from "./provider-error.js";
import { MAX_RETRIES, type ResilienceOptions, resilientChat } from "./resilient-chat.js";
import type { ChatRequest, LLMProvider } from "./types.js";

const dirs = new TempDirs();
let home: string;
const servers: LlmServer[] = [];
const stoppers: Array<() => Promise<void>> = [];

beforeEach(async () => {
  home = await dirs.make("marvin-resilient-");
});
afterEach(async () => {
  await Promise.all([
    ...servers.splice(0).map((server) => server.close()),
    ...stoppers.splice(0).map((stop) => stop()),
  ]);
  await dirs.cleanup();
});

async function providerFor(script: Script[]): Promise<{ provider: LLMProvider; server: LlmServer }> {
  const server = await startLlmServer(script);
  servers.push(server);
  return { provider: new OpenAICompatibleProvider(scriptedConfig(server.url, home)), server };
}

function request(deltas: string[] = [], signal?: AbortSignal): ChatRequest {
  return { messages: [{ role: "user", content: "hi" }], tools: [], onDelta: (text) => deltas.push(text), signal };
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

function chatWith(provider: LLMProvider, notices: string[], options: Partial<ResilienceOptions> = {}) {
  return resilientChat(provider, {
    notice: (text) => notices.push(text),
    transientBackoffSeconds: [0.01, 0.01],
    ...options,
  });
}

/** Sends the SSE headers and an empty first chunk, then nothing: a stream stalled before any text. */
async function startStallingServer(): Promise<{ url: string; requests: () => number }> {
  let count = 0;
  const server = createServer((_request, response) => {
    count += 1;
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.write(
      sse({
        ...contentChunk(""),
        choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }],
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  stoppers.push(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests: () => count };
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
  it("waits as long as Retry-After says, with a notice, then retries", async () => {
    const { provider, server } = await providerFor([
      { status: 429, headers: { "retry-after-ms": "250" } },
      { text: "after the wait" },
    ]);
    const notices: string[] = [];
    const started = Date.now();
    const response = await chatWith(provider, notices)(request());
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    expect(response).toMatchObject({ content: "after the wait", provider: "openai-compat" });
    expect(notices).toEqual(["⚠️ Rate limited by openai-compat. Waiting 0.3s before retry 1 of 2…"]);
    expect(server.requests).toHaveLength(2);
  });

  it("honours Retry-After in seconds instead of the 30 s default", async () => {
    const { provider } = await providerFor([{ status: 429, headers: { "retry-after": "0" } }, { text: "ok" }]);
    const notices: string[] = [];
    expect((await chatWith(provider, notices)(request())).content).toBe("ok");
    expect(notices).toEqual(["⚠️ Rate limited by openai-compat. Waiting 0s before retry 1 of 2…"]);
  });

  it("gives up after two retries with the server's message", async () => {
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

  it("fails fast when the server asks for a very long wait", async () => {
    const { provider, server } = await providerFor([{ status: 429, headers: { "retry-after": "3600" } }]);
    const error = await failure(chatWith(provider, [])(request()));
    expect(error.message).toContain("(the server asks to wait 3600s; not waiting that long)");
    expect(server.requests).toHaveLength(1);
  });

  it("stops waiting when the request is cancelled", async () => {
    const { provider } = await providerFor([{ status: 429, headers: { "retry-after": "60" } }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("cancelled by the user")), 50);
    const started = Date.now();
    await expect(chatWith(provider, [])(request([], controller.signal))).rejects.toThrow("cancelled by the user");
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe("server and network errors", () => {
  it("retries a 5xx briefly and succeeds", async () => {
    const { provider, server } = await providerFor([{ status: 503 }, { text: "recovered" }]);
    const notices: string[] = [];
    expect((await chatWith(provider, notices)(request())).content).toBe("recovered");
    expect(server.requests).toHaveLength(2);
    expect(notices[0]).toMatch(/^⚠️ openai-compat server error \(HTTP 503\): .*Waiting 0\.0s before retry 1 of 2…$/);
    expect(notices[0]).not.toMatch(/\.\. Waiting/);
  });

  it("retries an error sent inside the stream before any text", async () => {
    const { provider, server } = await providerFor([
      { rawSse: sse({ error: { message: "overloaded" } }) },
      { text: "second try" },
    ]);
    expect((await chatWith(provider, [])(request())).content).toBe("second try");
    expect(server.requests).toHaveLength(2);
  });

  it("never retries once text has been streamed (it would be shown twice)", async () => {
    const { provider, server } = await providerFor([
      { rawSse: sse(contentChunk("Hello"), { error: { message: "overloaded" } }) },
      { text: "Hello again" },
    ]);
    const deltas: string[] = [];
    const error = await failure(chatWith(provider, [])(request(deltas)));
    expect(deltas).toEqual(["Hello"]);
    expect(error).toMatchObject({ kind: "server", partialOutput: true });
    expect(error.message).toContain("overloaded");
    expect(server.requests).toHaveLength(1);
  });

  it("does not retry a cut stream", async () => {
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
  it("answers with the fallback when the primary refuses the key and the fallback is usable", async () => {
    const { provider } = await providerFor([{ status: 401, body: { error: { message: "Invalid API key" } } }]);
    const { provider: fallback, server: fallbackServer } = await providerFor([{ text: "from the fallback" }]);
    const notices: string[] = [];
    const response = await chatWith(provider, notices, { fallback: async () => fallback })(request());
    expect(response.content).toBe("from the fallback");
    expect(fallbackServer.requests).toHaveLength(1);
    expect(notices).toEqual([
      expect.stringMatching(
        /^⚠️ openai-compat refused the API key \(HTTP 401\): Invalid API key\. Check OPENAI_COMPAT_API_KEY\. — falling back to Copilot\.$/,
      ),
    ]);
  });

  it("reports the original error when Copilot is not usable", async () => {
    const { provider } = await providerFor([{ status: 401, body: { error: { message: "Invalid API key" } } }]);
    const error = await failure(chatWith(provider, [], { fallback: async () => undefined })(request()));
    expect(error.kind).toBe("auth");
    expect(error.message).toContain("Check OPENAI_COMPAT_API_KEY.");
  });

  it("never falls back (or retries) when the user cancels before any text arrived", async () => {
    const stalling = await startStallingServer();
    const provider = new OpenAICompatibleProvider(scriptedConfig(stalling.url, home));
    let asked = false;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await failure(
      chatWith(provider, [], {
        fallback: async () => {
          asked = true;
          return undefined;
        },
      })(request([], controller.signal)),
    );
    expect(error).toMatchObject({ kind: "aborted", partialOutput: false });
    expect(asked).toBe(false);
    expect(stalling.requests()).toBe(1);
  });

  it("does not fall back on a bad request, which another provider would reject too", async () => {
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
