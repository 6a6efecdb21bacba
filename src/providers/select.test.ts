import { mkdir, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TempDirs } from "../../tests/support/test-session.js";
import type { Env } from "../shared/env.js";
import { ollamaAnswers } from "./ollama/descriptor.js";
import { HOW_TO_CONFIGURE, selectProvider } from "./select.js";

const dirs = new TempDirs();
let home: string;
let ollama: { server: Server; url: string; paths: string[] } | undefined;

beforeEach(async () => {
  home = await dirs.make("marvin-select-");
});
afterEach(async () => {
  if (ollama) {
    ollama.server.closeAllConnections();
    await new Promise((resolve) => ollama!.server.close(resolve));
  }
  ollama = undefined;
  await dirs.cleanup();
});

/** Nothing listens on port 9 (discard) on these machines: an Ollama that does not answer. */
const SILENT_OLLAMA = "http://127.0.0.1:9";

/** A real local HTTP server answering like Ollama's /api/tags. */
async function startOllama(status = 200): Promise<string> {
  const paths: string[] = [];
  const server = createServer((request, response) => {
    paths.push(`${request.method} ${request.url}`);
    response.writeHead(status, { "content-type": "application/json" });
    response.end(JSON.stringify({ models: [{ name: "qwen3-coder:30b" }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  ollama = { server, url, paths };
  return url;
}

/** Selection with the real probes: the Copilot check on disk and an HTTP probe of Ollama. */
function select(explicit: string | undefined, env: Env) {
  const fullEnv: Env = { HOME: home, OLLAMA_URL: SILENT_OLLAMA, ...env };
  return selectProvider(explicit, fullEnv, home);
}

function copilotSdkInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve("@github/copilot-sdk");
    return true;
  } catch {
    return false;
  }
}

describe("selectProvider", () => {
  it("takes --provider over LLM_PROVIDER", async () => {
    expect(await select("groq", { LLM_PROVIDER: "openai", GROQ_API_KEY: "g", OPENAI_API_KEY: "o" })).toEqual({
      provider: "groq",
    });
  });

  it("takes LLM_PROVIDER when there is no flag, ignoring case and spaces", async () => {
    expect(await select(undefined, { LLM_PROVIDER: " OpenAI ", OPENAI_API_KEY: "o", GROQ_API_KEY: "g" })).toEqual({
      provider: "openai",
    });
  });

  it("rejects an unknown provider name, saying where it came from", async () => {
    expect(await select("claude", {})).toEqual({
      error:
        "--provider 'claude' is not a provider. Choose one of: copilot, anthropic, gemini, groq, mistral, openai, " +
        "openrouter, codex, ollama, openai-compat.",
    });
    expect(await select(undefined, { LLM_PROVIDER: "mistralai" })).toEqual({
      error: expect.stringMatching(/^LLM_PROVIDER 'mistralai' is not a provider/),
    });
  });

  it("says which variable to set when the chosen provider has no key", async () => {
    expect(await select("openai", {})).toEqual({
      error: "openai needs an API key: set OPENAI_API_KEY (or ~/.ssh/OPENAI_API_KEY).",
    });
  });

  it.skipIf(!copilotSdkInstalled())("uses Copilot when it is usable and nothing is chosen", async () => {
    expect(await select(undefined, { GH_TOKEN: "gho_test", OPENAI_API_KEY: "o" })).toEqual({ provider: "copilot" });
    expect(await select(undefined, { GH_TOKEN: "gho_test", OPENAI_API_KEY: "o", LLM_PROVIDER: "openai" })).toEqual({
      provider: "openai",
    });
  });

  it("uses the one provider with a key when Copilot is not usable, and says so", async () => {
    expect(await select(undefined, { OPENAI_API_KEY: "o" })).toEqual({
      provider: "openai",
      notice: "LLM_PROVIDER is not set and Copilot is not available; using openai (OPENAI_API_KEY is set).",
    });
  });

  it("counts a key kept in ~/.ssh as configured", async () => {
    await mkdir(join(home, ".ssh"));
    await writeFile(join(home, ".ssh", "GEMINI_API_KEY"), "gem\n");
    expect(await select(undefined, {})).toMatchObject({
      provider: "gemini",
      notice: expect.stringContaining("using gemini (GEMINI_API_KEY is set)"),
    });
  });

  it("uses a local Ollama that answers on /api/tags", async () => {
    const url = await startOllama();
    expect(await select(undefined, { OLLAMA_URL: url })).toEqual({
      provider: "ollama",
      notice: `LLM_PROVIDER is not set and Copilot is not available; using ollama (Ollama answers at ${url}).`,
    });
    expect(ollama!.paths).toEqual(["GET /api/tags"]);
  });

  it("refuses to guess between several configured providers", async () => {
    const url = await startOllama();
    const selection = await select(undefined, {
      GROQ_API_KEY: "g",
      OPENAI_COMPAT_URL: "http://127.0.0.1:8000/v1",
      OLLAMA_URL: url,
    });
    expect(selection).toEqual({
      error:
        "LLM_PROVIDER is not set, Copilot is not available, and several providers are configured (groq, " +
        "openai-compat, ollama). Choose one with --provider NAME or LLM_PROVIDER.",
    });
  });

  it("explains how to configure a provider when there is none", async () => {
    expect(await select(undefined, {})).toEqual({ error: HOW_TO_CONFIGURE });
    expect(HOW_TO_CONFIGURE).toContain("LLM_PROVIDER=openai with OPENAI_API_KEY");
    expect(HOW_TO_CONFIGURE).toContain("gh auth login");
  });
});

describe("ollamaAnswers", () => {
  it("is true only for a server that answers /api/tags successfully", async () => {
    expect(await ollamaAnswers(SILENT_OLLAMA)).toBe(false);
    const url = await startOllama(404);
    expect(await ollamaAnswers(`${url}/v1`)).toBe(false);
    expect(ollama!.paths).toEqual(["GET /api/tags"]);
  });

  it("strips the /v1 suffix of the OpenAI-compatible base URL", async () => {
    const url = await startOllama();
    expect(await ollamaAnswers(`${url}/v1`)).toBe(true);
    expect(ollama!.paths).toEqual(["GET /api/tags"]);
  });
});
