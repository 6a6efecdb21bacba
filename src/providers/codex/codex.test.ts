import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import {
  ACCOUNT_ID,
  type ChatGpt,
  type CodexReply,
  codexAuthJson,
  type SignInTokens,
  startChatGpt,
} from "../../../tests/support/chatgpt-servers.js";
import { test as base, describe, expect } from "../../../tests/support/fixtures.js";
import { collect } from "../../../tests/support/provider-stream.js";
import { resolveProviderConfig } from "../config.js";
import { createProvider } from "../create.js";
import type { ChatRequest, LLMProvider, Message } from "../types.js";
import { loginCodex } from "./login.js";

interface Codex {
  chatgpt: ChatGpt;
  /** Writes the codex CLI's auth.json under $CODEX_HOME and returns its path. */
  signIn(tokens: SignInTokens): Promise<string>;
  provider(): Promise<LLMProvider>;
  env: Record<string, string>;
}

const test = base.extend<{ codex: (script: CodexReply[], refreshDelayMs?: number) => Promise<Codex> }>({
  codex: async ({ home }, use) => {
    const started: ChatGpt[] = [];
    await use(async (script, refreshDelayMs) => {
      const chatgpt = await startChatGpt(script, refreshDelayMs);
      started.push(chatgpt);
      const codexHome = join(home, "codex-home");
      const env = {
        HOME: home,
        CODEX_HOME: codexHome,
        MARVIN_CODEX_URL: chatgpt.codexUrl,
        MARVIN_OPENAI_AUTH_URL: chatgpt.authUrl,
      };
      const signIn = async (tokens: SignInTokens) => {
        await mkdir(codexHome, { recursive: true });
        const path = join(codexHome, "auth.json");
        await writeFile(path, codexAuthJson(tokens), { mode: 0o600 });
        return path;
      };
      const provider = () =>
        createProvider(resolveProviderConfig("codex", { env, home, codingMode: false, nonInteractive: false }), env);
      return { chatgpt, signIn, provider, env };
    });
    await Promise.all(started.map((chatgpt) => chatgpt.close()));
  },
});

const hello: ChatRequest = { messages: [{ role: "user", content: "hello" }], tools: [], cacheKey: "conv-1" };

async function authFile(path: string): Promise<{ tokens: SignInTokens; last_refresh: string; OPENAI_API_KEY: null }> {
  return JSON.parse(await readFile(path, "utf8"));
}

describe("codex: the ChatGPT plan through the Codex backend", () => {
  test("sends the codex CLI's sign-in to <base>/responses with its account, carrying encrypted reasoning", async ({
    codex,
  }) => {
    const { chatgpt, signIn, provider } = await codex([
      {
        response: {
          reasoning: { summary: ["Tea first."], encrypted: "gAAAAABenc==" },
          toolCalls: [{ callId: "call_Tea", name: "timer_start", arguments: { name: "tea" } }],
          usage: { input: 900, output: 40 },
        },
      },
      { response: { text: "Running.", usage: { input: 1_000, output: 5, cached: 896 } } },
    ]);
    const tokens = chatgpt.issue();
    await signIn(tokens);
    const chat = await provider();
    const first = await collect(chat.stream(hello));
    expect(first.error).toBeUndefined();
    const answer = first.response!;
    const messages: Message[] = [
      ...hello.messages,
      { role: "assistant", content: null, tool_calls: answer.toolCalls, replay: answer.replay },
      { role: "tool", tool_call_id: "call_Tea", content: "started" },
    ];
    const second = await collect(chat.stream({ ...hello, messages }));
    expect(second.response?.content).toBe("Running.");

    const [opening, afterTools] = chatgpt.backendRequests;
    expect(opening!.headers).toMatchObject({
      authorization: `Bearer ${tokens.access_token}`,
      "chatgpt-account-id": ACCOUNT_ID,
      session_id: "conv-1",
    });
    expect(opening!.body).toMatchObject({
      model: "gpt-5.1-codex",
      store: false,
      include: ["reasoning.encrypted_content"],
    });
    expect(afterTools!.body.input).toContainEqual({
      type: "reasoning",
      summary: [{ type: "summary_text", text: "Tea first." }],
      encrypted_content: "gAAAAABenc==",
    });
    expect(chatgpt.refreshes).toHaveLength(0);
  });

  test("refreshes a token about to expire first, writing the new tokens back into the file they came from", async ({
    codex,
    home,
  }) => {
    const { chatgpt, signIn, provider } = await codex([{ response: { text: "Hi." } }]);
    const tokens = chatgpt.issue(60);
    const path = await signIn(tokens);
    const { error } = await collect((await provider()).stream(hello));
    expect(error).toBeUndefined();
    expect(chatgpt.refreshes).toEqual([
      {
        client_id: "app_EMoamEEZ73f0CkXaXp7hrann",
        grant_type: "refresh_token",
        refresh_token: tokens.refresh_token,
        scope: "openid profile email",
      },
    ]);
    const saved = await authFile(path);
    expect(saved.OPENAI_API_KEY).toBeNull();
    expect(saved.tokens.refresh_token).not.toBe(tokens.refresh_token);
    expect(chatgpt.backendRequests[0]!.headers.authorization).toBe(`Bearer ${saved.tokens.access_token}`);
    expect(saved.last_refresh).not.toBe("2026-11-30T08:00:00.000000Z");
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    // No second copy that would drift apart from codex's own file.
    await expect(stat(join(home, ".config", "local-finder", "codex-auth.json"))).rejects.toThrow();
  });

  test("requests racing an expired token share one refresh: the refresh token is good for one use", async ({
    codex,
  }) => {
    const { chatgpt, signIn, provider } = await codex(
      [{ response: { text: "One." } }, { response: { text: "Two." } }],
      150,
    );
    await signIn(chatgpt.issue(-10));
    const chat = await provider();
    const [one, two] = await Promise.all([collect(chat.stream(hello)), collect(chat.stream(hello))]);
    expect(one.error).toBeUndefined();
    expect(two.error).toBeUndefined();
    expect(chatgpt.refreshes).toHaveLength(1);
    expect(chatgpt.backendRequests).toHaveLength(2);
  });

  test("a token the backend refuses mid-conversation is refreshed once and the request sent again", async ({
    codex,
  }) => {
    const { chatgpt, signIn, provider } = await codex([
      { response: { text: "First." } },
      { response: { text: "Again." } },
    ]);
    const tokens = chatgpt.issue();
    await signIn(tokens);
    const chat = await provider();
    expect((await collect(chat.stream(hello))).response?.content).toBe("First.");
    chatgpt.expire(tokens.access_token);
    const later = await collect(chat.stream(hello));
    expect(later.error).toBeUndefined();
    expect(later.response?.content).toBe("Again.");
    expect(chatgpt.refreshes).toHaveLength(1);
  });

  test("takes up a refresh the codex CLI made meanwhile instead of spending the used refresh token", async ({
    codex,
  }) => {
    const { chatgpt, signIn, provider } = await codex([
      { response: { text: "First." } },
      { response: { text: "Again." } },
    ]);
    const old = chatgpt.issue();
    await signIn(old);
    const chat = await provider();
    await collect(chat.stream(hello));
    chatgpt.expire(old.access_token);
    chatgpt.revoke(old.refresh_token); // the codex CLI refreshed: the old refresh token is spent
    const current = chatgpt.issue();
    await signIn(current);
    const later = await collect(chat.stream(hello));
    expect(later.error).toBeUndefined();
    expect(chatgpt.refreshes).toHaveLength(0);
    expect(chatgpt.backendRequests[1]!.headers.authorization).toBe(`Bearer ${current.access_token}`);
  });

  test("a refresh the sign-in server refuses says to sign in again", async ({ codex }) => {
    const { chatgpt, signIn, provider } = await codex([{ response: { text: "never" } }]);
    const tokens = chatgpt.issue(-10);
    chatgpt.revoke(tokens.refresh_token);
    await signIn(tokens);
    const { error } = await collect((await provider()).stream(hello));
    expect(error).toMatchObject({ kind: "auth" });
    expect(error!.message).toMatch(
      /could not be refreshed \(refresh_token_reused: .*\): sign in again with 'marvin login codex'/,
    );
  });

  test("without a sign-in, says how to make one", async ({ codex }) => {
    const { provider } = await codex([]);
    const { error } = await collect((await provider()).stream(hello));
    expect(error).toMatchObject({ kind: "auth" });
    expect(error!.message).toMatch(/^No ChatGPT sign-in found .*'marvin login codex'/);
  });

  test("explains the plan's usage limit at once, with when it resets", async ({ codex }) => {
    const resetsAt = Math.floor(Date.now() / 1000) + 2 * 3600 + 13 * 60 + 30;
    const limit = {
      error: {
        type: "usage_limit_reached",
        message: "The usage limit has been reached",
        plan_type: "plus",
        resets_at: resetsAt,
      },
    };
    const { chatgpt, signIn, provider } = await codex([{ status: 429, body: limit }]);
    await signIn(chatgpt.issue());
    const { error } = await collect((await provider()).stream(hello));
    expect(error).toMatchObject({ kind: "unavailable", status: 429 });
    expect(error!.retryAfterSeconds).toBeGreaterThan(2 * 3600);
    expect(error!.message).toMatch(
      /^codex: your ChatGPT plan's usage limit is reached \(plus plan\); it resets in 2 h 1[34] min \(\w{3} \d\d:\d\d\)\./,
    );
  });

  test("reads when the limit resets from the headers when the body does not say", async ({ codex }) => {
    const headers = {
      "x-codex-primary-used-percent": "100",
      "x-codex-primary-reset-after-seconds": "1500",
      "x-codex-secondary-used-percent": "40",
      "x-codex-secondary-reset-after-seconds": "400000",
    };
    const { chatgpt, signIn, provider } = await codex([
      { status: 429, body: { detail: "Too Many Requests" }, headers },
    ]);
    await signIn(chatgpt.issue());
    const { error } = await collect((await provider()).stream(hello));
    expect(error).toMatchObject({ kind: "unavailable", retryAfterSeconds: 1500 });
    expect(error!.message).toContain("it resets in 25 min");
  });
});

describe("marvin login codex", () => {
  test("signs in through the browser's return to the loopback callback, and the provider uses that sign-in", async ({
    codex,
    home,
  }) => {
    const { chatgpt, env, provider } = await codex([{ response: { text: "Signed in and answering." } }]);
    const out = new PassThrough();
    let printed = "";
    out.on("data", (data: Buffer) => {
      printed += data.toString();
    });
    const input = new PassThrough();
    const done = loginCodex({ env: { ...env, MARVIN_CODEX_CALLBACK_PORT: "0" }, home, out, input });
    await expect.poll(() => printed).toContain("/oauth/authorize?");
    const link = new URL(/(http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+)/.exec(printed)![1]!);
    const query = link.searchParams;
    expect(Object.fromEntries(query)).toMatchObject({
      response_type: "code",
      client_id: "app_EMoamEEZ73f0CkXaXp7hrann",
      scope: "openid profile email offline_access",
      code_challenge_method: "S256",
      id_token_add_organizations: "true",
      codex_cli_simplified_flow: "true",
    });
    // The browser signs in and is sent back to the redirect URI with a code and the state.
    chatgpt.codes.set("code-123", query.get("code_challenge")!);
    const back = new URL(query.get("redirect_uri")!);
    expect(back.pathname).toBe("/auth/callback");
    back.searchParams.set("code", "code-123");
    back.searchParams.set("state", query.get("state")!);
    const page = await fetch(back.href.replace("localhost", "127.0.0.1"));
    expect(await page.text()).toContain("Signed in");
    expect(await done).toBe(0);
    expect(printed).toContain("Signed in to ChatGPT as marvin@example.com");
    expect(chatgpt.codeExchanges[0]).toMatchObject({ redirect_uri: query.get("redirect_uri") });

    const path = join(home, ".config", "local-finder", "codex-auth.json");
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await authFile(path)).tokens.account_id).toBe(ACCOUNT_ID);
    const { response } = await collect((await provider()).stream(hello));
    expect(response?.content).toBe("Signed in and answering.");
  });

  test("refuses an answer whose state is not its own", async ({ codex, home }) => {
    const { env } = await codex([]);
    const out = new PassThrough();
    let printed = "";
    out.on("data", (data: Buffer) => {
      printed += data.toString();
    });
    const input = new PassThrough();
    const done = loginCodex({ env: { ...env, MARVIN_CODEX_CALLBACK_PORT: "0" }, home, out, input });
    await expect.poll(() => printed).toContain("/oauth/authorize?");
    const link = new URL(/(http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+)/.exec(printed)![1]!);
    // Pasted from another machine's browser, as the printed link allows.
    input.write(`${link.searchParams.get("redirect_uri")}?code=stolen&state=not-this-one\n`);
    expect(await done).toBe(1);
    expect(printed).toContain("the ChatGPT sign-in failed: the answer does not belong to this sign-in");
  });
});
