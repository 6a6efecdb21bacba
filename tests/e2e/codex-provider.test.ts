import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ACCOUNT_ID, type ChatGpt, codexAuthJson, startChatGpt } from "../support/chatgpt-servers.js";
import { describe, expect, test } from "../support/fixtures.js";
import { costOf, runMarvin } from "../support/run-marvin.js";

describe("marvin with LLM_PROVIDER=codex (a ChatGPT plan)", () => {
  test("refreshes the codex CLI's expired sign-in and holds a tool round, the plan covering the cost", async ({
    home,
    httpServers,
  }) => {
    const chatgpt: ChatGpt = httpServers.adopt(
      await startChatGpt([
        {
          response: {
            reasoning: { summary: ["A timer."], encrypted: "gAAAAABtea==" },
            text: "Starting it.",
            toolCalls: [{ callId: "call_Tea", name: "timer_start", arguments: { name: "tea", duration_seconds: 120 } }],
            usage: { input: 3_000, output: 60 },
          },
        },
        { response: { text: "Your tea timer is running.", usage: { input: 3_200, output: 20, cached: 2_944 } } },
      ]),
    );
    const codexHome = join(home, ".codex");
    await mkdir(codexHome);
    const expired = chatgpt.issue(-60);
    await writeFile(join(codexHome, "auth.json"), codexAuthJson(expired), { mode: 0o600 });
    const env = {
      PATH: process.env.PATH,
      HOME: home,
      LLM_PROVIDER: "codex",
      MARVIN_CODEX_URL: chatgpt.codexUrl,
      MARVIN_OPENAI_AUTH_URL: chatgpt.authUrl,
    };
    const run = await runMarvin(["--non-interactive", "--prompt", "start a tea timer"], { env, cwd: home });
    expect(run.stderr).not.toMatch(/sign in again|refused/);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Starting it.\n  🔧 timer_start\nYour tea timer is running.\n");

    expect(chatgpt.refreshes).toHaveLength(1);
    const saved = JSON.parse(await readFile(join(codexHome, "auth.json"), "utf8"));
    const [opening, afterTools] = chatgpt.backendRequests;
    expect(opening!.headers).toMatchObject({
      authorization: `Bearer ${saved.tokens.access_token}`,
      "chatgpt-account-id": ACCOUNT_ID,
    });
    expect(afterTools!.body.input).toContainEqual({
      type: "reasoning",
      summary: [{ type: "summary_text", text: "A timer." }],
      encrypted_content: "gAAAAABtea==",
    });
    const cost = costOf(run);
    expect(cost.session_cost).toBe(0);
    expect(cost.llm_turns).toBe(2);
    expect(cost.cached_tokens).toEqual({ "gpt-5.1-codex": 2_944 });
  });

  test("explains a used-up plan at once and does not wait for it", async ({ home, httpServers }) => {
    const limit = { error: { type: "usage_limit_reached", plan_type: "pro", resets_in_seconds: 5_400 } };
    const chatgpt: ChatGpt = httpServers.adopt(await startChatGpt([{ status: 429, body: limit }]));
    await mkdir(join(home, ".codex"));
    await writeFile(join(home, ".codex", "auth.json"), codexAuthJson(chatgpt.issue()), { mode: 0o600 });
    const env = {
      PATH: process.env.PATH,
      HOME: home,
      LLM_PROVIDER: "codex",
      MARVIN_CODEX_URL: chatgpt.codexUrl,
      MARVIN_OPENAI_AUTH_URL: chatgpt.authUrl,
    };
    const started = Date.now();
    const run = await runMarvin(["--non-interactive", "--prompt", "hello"], { env, cwd: home });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("your ChatGPT plan's usage limit is reached (pro plan); it resets in 1 h 30 min");
    expect(run.stderr).not.toContain("Waiting");
    expect(chatgpt.backendRequests).toHaveLength(1);
  });
});

describe("marvin login", () => {
  test("codex prints the sign-in link and refuses an address that does not belong to it", async ({
    home,
    httpServers,
  }) => {
    const chatgpt: ChatGpt = httpServers.adopt(await startChatGpt([]));
    const env = {
      PATH: process.env.PATH,
      HOME: home,
      MARVIN_OPENAI_AUTH_URL: chatgpt.authUrl,
      MARVIN_CODEX_CALLBACK_PORT: "0",
    };
    const stdin = "http://localhost:1455/auth/callback?code=stolen&state=someone-else\n";
    const run = await runMarvin(["login", "codex"], { env, cwd: home, stdin });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${chatgpt.authUrl}/oauth/authorize?response_type=code&client_id=`);
    expect(run.stderr).toContain("the ChatGPT sign-in failed: the answer does not belong to this sign-in");
    expect(chatgpt.codeExchanges).toHaveLength(0);
  });

  test("names what it signs in to", async ({ home }) => {
    const run = await runMarvin(["login", "spotify"], { env: { PATH: process.env.PATH, HOME: home }, cwd: home });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      "marvin: 'marvin login' signs in to: codex (your ChatGPT plan). Usage: marvin login codex\n",
    );
  });
});
