import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "../support/fixtures.js";
import { type LlmServer, userWords } from "../support/llm-server.js";
import { ollamaDone, ollamaLine, startOllamaServer } from "../support/ollama-server.js";
import { costOf, runMarvin } from "../support/run-marvin.js";
import { TmuxMarvin } from "../support/tmux.js";

const hasTmux = spawnSync("tmux", ["-V"]).status === 0;

/** Nothing but a terminal, a PATH and the temporary home: no provider variable at all. */
function bareEnv(home: string, extra: Record<string, string> = {}): Record<string, string | undefined> {
  return { PATH: process.env.PATH, HOME: home, TERM: "xterm-256color", LANG: "C.UTF-8", MARVIN_LSP: "off", ...extra };
}

function savedChoice(home: string): unknown {
  return JSON.parse(readFileSync(join(home, ".config/local-finder/profiles/main/provider.json"), "utf8"));
}

/** The number the setup menu gives `provider` (the menu grows with the providers Marvin knows). */
function menuNumber(screen: string, provider: string): string {
  const found = new RegExp(`(\\d+)\\. ${provider} `).exec(screen);
  if (!found) throw new Error(`the menu has no ${provider}:\n${screen}`);
  return found[1]!;
}

/** A plain `marvin` start in a terminal, with no variable but HOME and PATH, answering a question. */
async function startsWithoutVariables(home: string, ...expected: string[]): Promise<string> {
  const marvin = await TmuxMarvin.start({ env: bareEnv(home), args: ["--plain"], cwd: home, width: 120 });
  try {
    await marvin.waitFor("/exit to leave.", 20_000);
    await marvin.submit("hello");
    for (const text of expected) await marvin.waitFor(text, 20_000);
    return await marvin.text();
  } finally {
    await marvin.kill();
  }
}

/** A non-interactive run against what setup saved: only PATH and HOME. */
async function headlessRun(home: string) {
  return runMarvin(["--non-interactive", "--prompt", "hello"], { env: bareEnv(home), cwd: home });
}

describe.skipIf(!hasTmux)(
  `marvin setup in a real terminal${hasTmux ? "" : ": skipped because tmux is missing"}`,
  () => {
    test("finds a key in ~/.ssh, tests it with the models list, saves the chosen model", async ({ home, llm }) => {
      const server: LlmServer = await llm([{ text: "Hi from the saved model." }, { text: "Headless hello." }]);
      mkdirSync(join(home, ".ssh"), { mode: 0o700 });
      writeFileSync(join(home, ".ssh", "OPENAI_COMPAT_API_KEY"), "key-from-file\n", { mode: 0o600 });
      const env = bareEnv(home, { OPENAI_COMPAT_URL: server.url });
      const setup = await TmuxMarvin.start({ env, args: ["setup"], cwd: home, width: 160 });
      try {
        const menu = await setup.waitFor("Which one", 20_000);
        expect(menu).toContain(`openai-compat  key in ~/.ssh/OPENAI_COMPAT_API_KEY at ${server.url} — works, 2 models`);
        await setup.submit(menuNumber(menu, "openai-compat"));
        const models = await setup.waitFor("Which model");
        expect(models).toContain("128k context · $0.15 in / $0.6 out per M tokens");
        expect(models).toMatch(/2\. house-model-7b +price unknown/);
        await setup.submit("2");
        await setup.waitFor("MARVIN_EXITED=0");
      } finally {
        await setup.kill();
      }
      expect(savedChoice(home)).toEqual({ provider: "openai-compat", model: "house-model-7b", baseUrl: server.url });

      const screen = await startsWithoutVariables(home, "Hi from the saved model.", "price unknown");
      expect(screen).toMatch(/context \S+ \(\d+%\) · price unknown/);
      const run = await headlessRun(home);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("Headless hello.");
      expect(costOf(run).unpriced_models).toEqual(["house-model-7b"]);
      expect(server.requests.map((request) => request.body.model)).toEqual(["house-model-7b", "house-model-7b"]);
      expect(server.requests[1]!.headers.authorization).toBe("Bearer key-from-file");
    });

    test("finds a local Ollama at OLLAMA_URL and lists its models", async ({ home, httpServers }) => {
      const reply = (text: string) => ({ lines: [ollamaLine({ content: text }), ollamaDone()] });
      const ollama = await startOllamaServer([reply("Hi from Ollama."), reply("Headless Ollama.")], {}, [
        "qwen3:8b",
        "llama-test",
      ]);
      httpServers.adopt(ollama);
      const setup = await TmuxMarvin.start({
        env: bareEnv(home, { OLLAMA_URL: ollama.origin }),
        args: ["setup"],
        cwd: home,
        width: 160,
      });
      try {
        const menu = await setup.waitFor("Which one", 20_000);
        expect(menu).toContain(`Ollama answers at ${ollama.origin} — works, 2 models`);
        await setup.submit(menuNumber(menu, "ollama"));
        const models = await setup.waitFor("Which model");
        expect(models).toMatch(/2\. llama-test +free \(local\)/);
        await setup.submit("2");
        await setup.waitFor("MARVIN_EXITED=0");
      } finally {
        await setup.kill();
      }
      expect(savedChoice(home)).toEqual({ provider: "ollama", model: "llama-test", baseUrl: ollama.origin });
      await startsWithoutVariables(home, "Hi from Ollama.");
      const run = await headlessRun(home);
      expect(run.stdout).toContain("Headless Ollama.");
      expect(ollama.chats().map((chat) => chat.model)).toEqual(["llama-test", "llama-test"]);
    });

    test("with nothing set up, the first start offers setup: a pasted key, hidden and saved 0600; a chat", async ({
      home,
      llm,
    }) => {
      const server = await llm([
        { text: "Set up and answering." },
        { text: "Next start works." },
        { text: "Headless." },
      ]);
      const marvin = await TmuxMarvin.start({ env: bareEnv(home), args: ["--plain"], cwd: home, width: 160 });
      try {
        await marvin.waitFor("Set one up now with 'marvin setup'? [Y/n]", 20_000);
        await marvin.press("Enter");
        const menu = await marvin.waitFor("Which one", 20_000);
        expect(menu).toContain("Found no key, local server or Copilot sign-in.");
        await marvin.submit(menuNumber(menu, "openai-compat"));
        await marvin.waitFor("URL of the openai-compat server");
        await marvin.submit(server.url);
        await marvin.waitFor("OPENAI_COMPAT_API_KEY (paste it; it is not shown");
        // Pasted as a terminal in bracketed-paste mode sends it: the brackets are not part of the key.
        await marvin.type("\u001b[200~pasted-secret-key\u001b[201~");
        await marvin.press("Enter");
        await marvin.waitFor("(17 characters, not shown)");
        await marvin.waitFor("Which model");
        await marvin.press("Enter");
        await marvin.waitFor("/exit to leave.", 20_000);
        expect(await marvin.text()).not.toContain("pasted-secret-key");
        await marvin.submit("hello");
        await marvin.waitFor("Set up and answering.");
      } finally {
        await marvin.kill();
      }
      const keyFile = join(home, ".ssh", "OPENAI_COMPAT_API_KEY");
      expect(readFileSync(keyFile, "utf8")).toBe("pasted-secret-key\n");
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(savedChoice(home)).toEqual({ provider: "openai-compat", model: "gpt-4o-mini", baseUrl: server.url });

      await startsWithoutVariables(home, "Next start works.");
      const run = await headlessRun(home);
      expect(run.stdout).toContain("Headless.");
      expect(server.requests.map((request) => request.headers.authorization)).toEqual([
        "Bearer pasted-secret-key",
        "Bearer pasted-secret-key",
        "Bearer pasted-secret-key",
      ]);
      expect(userWords(server.requests[0]!.body.messages.at(-1)?.content ?? null)).toBe("hello");
    });
  },
);

describe("without a provider", () => {
  test("a non-interactive run never asks: it exits 1 naming marvin setup", async ({ home }) => {
    const run = await runMarvin(["--non-interactive", "--prompt", "hello"], { env: bareEnv(home), cwd: home });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Run 'marvin setup' to choose one");
    expect(costOf(run).llm_turns).toBe(0);
  });
});

describe("marvin models", () => {
  test("lists the endpoint's models with context window and price, the current one marked", async ({ home, llm }) => {
    const server = await llm([]);
    const env = bareEnv(home, {
      LLM_PROVIDER: "openai-compat",
      OPENAI_COMPAT_URL: server.url,
      OPENAI_COMPAT_MODEL: "house-model-7b",
    });
    const run = await runMarvin(["models"], { env, cwd: home });
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n")).toEqual([
      "Models of openai-compat:",
      "    1. gpt-4o-mini               128k context · $0.15 in / $0.6 out per M tokens",
      "  * 2. house-model-7b (current)  price unknown",
      "",
    ]);
  });
});
