import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type LlmServer, startLlmServer } from "../../tests/support/llm-server.js";
import { TempDirs } from "../../tests/support/test-session.js";
import type { Env } from "../shared/env.js";
import {
  missingConfiguration,
  normalizeBaseUrl,
  PROVIDER_DEFAULTS,
  type ProviderConfigOptions,
  resolveApiKey,
  resolveProviderConfig,
} from "./config.js";
import { OpenAICompatibleProvider } from "./openai-compatible/index.js";
import type { ProviderName } from "./types.js";

const dirs = new TempDirs();
let home: string;
let server: LlmServer | undefined;

beforeEach(async () => {
  home = await dirs.make("marvin-config-");
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

function config(name: ProviderName, env: Env = {}, options: Partial<ProviderConfigOptions> = {}) {
  return resolveProviderConfig(name, { env, home, codingMode: false, nonInteractive: false, ...options });
}

async function sshKey(name: string, value: string): Promise<void> {
  await mkdir(join(home, ".ssh"), { recursive: true });
  await writeFile(join(home, ".ssh", name), value);
}

describe("provider defaults (seed 000 §3.4, 002 §3)", () => {
  it("uses the seeds' models and endpoints", () => {
    expect(config("copilot").model).toBe("claude-haiku-4.5");
    expect(config("gemini")).toMatchObject({
      model: "gemini-3-pro-preview",
      baseUrl: "https://generativelanguage.googleapis.com/v1beta/openai",
    });
    expect(config("groq")).toMatchObject({
      model: "llama-3.3-70b-versatile",
      baseUrl: "https://api.groq.com/openai/v1",
    });
    expect(config("openai")).toMatchObject({ model: "gpt-5.1", baseUrl: "https://api.openai.com/v1" });
    expect(config("ollama")).toMatchObject({ model: "qwen3-coder:30b", baseUrl: "http://localhost:11434/v1" });
    expect(config("openai-compat")).toMatchObject({ model: "qwen/qwen3-32b", baseUrl: "https://openrouter.ai/api/v1" });
    expect(PROVIDER_DEFAULTS["openai-compat"].baseUrl).toBe("https://openrouter.ai/api/v1/chat/completions");
  });
});

describe("model selection", () => {
  it("reads each provider's model variable", () => {
    expect(config("groq", { GROQ_MODEL: "llama-3.1-8b-instant" }).model).toBe("llama-3.1-8b-instant");
    expect(config("gemini", { GEMINI_MODEL: "gemini-2.5-flash" }).model).toBe("gemini-2.5-flash");
    expect(config("ollama", { OLLAMA_MODEL: "llama3" }).model).toBe("llama3");
    expect(config("openai-compat", { OPENAI_COMPAT_MODEL: "deepseek/deepseek-chat" }).model).toBe(
      "deepseek/deepseek-chat",
    );
    expect(config("copilot", { MARVIN_CHAT_MODEL: "gpt-5.2" }).model).toBe("gpt-5.2");
  });

  it("applies MARVIN_MODEL to non-interactive runs only, and --model above everything", () => {
    const env = { GROQ_MODEL: "from-groq-model", MARVIN_MODEL: "from-marvin-model" };
    expect(config("groq", env).model).toBe("from-groq-model");
    expect(config("groq", env, { nonInteractive: true }).model).toBe("from-marvin-model");
    expect(config("groq", env, { nonInteractive: true, model: "from-flag" }).model).toBe("from-flag");
  });
});

describe("API keys", () => {
  it("reads the variable first, then ~/.ssh/<NAME> for Groq and Gemini", async () => {
    await sshKey("GROQ_API_KEY", "gsk-from-file\n");
    await sshKey("GEMINI_API_KEY", "  gem-from-file  ");
    expect(resolveApiKey("groq", {}, home)).toBe("gsk-from-file");
    expect(resolveApiKey("gemini", {}, home)).toBe("gem-from-file");
    expect(resolveApiKey("groq", { GROQ_API_KEY: "gsk-from-env" }, home)).toBe("gsk-from-env");
    expect(config("groq")).toMatchObject({ apiKey: "gsk-from-file", keyHint: "GROQ_API_KEY (or ~/.ssh/GROQ_API_KEY)" });
  });

  it("has no file fallback for OpenAI or the OpenAI-compatible endpoint", async () => {
    await sshKey("OPENAI_API_KEY", "sk-file");
    await sshKey("OPENAI_COMPAT_API_KEY", "compat-file");
    expect(resolveApiKey("openai", {}, home)).toBeUndefined();
    expect(resolveApiKey("openai-compat", {}, home)).toBeUndefined();
    expect(resolveApiKey("openai", { OPENAI_API_KEY: " sk-env " }, home)).toBe("sk-env");
    expect(config("openai").keyHint).toBe("OPENAI_API_KEY");
  });

  it("ignores an empty key file or variable", async () => {
    await sshKey("GROQ_API_KEY", "\n");
    expect(resolveApiKey("groq", { GROQ_API_KEY: "  " }, home)).toBeUndefined();
  });

  it("needs no key for Copilot and Ollama", () => {
    expect(resolveApiKey("copilot", {}, home)).toBeUndefined();
    expect(resolveApiKey("ollama", {}, home)).toBeUndefined();
  });
});

describe("URLs", () => {
  it("accepts OPENAI_COMPAT_URL as a full …/chat/completions endpoint or as a base URL", () => {
    expect(normalizeBaseUrl("https://openrouter.ai/api/v1/chat/completions")).toBe("https://openrouter.ai/api/v1");
    expect(normalizeBaseUrl("http://127.0.0.1:8000/v1/")).toBe("http://127.0.0.1:8000/v1");
    expect(normalizeBaseUrl(" http://host/v1/chat/completions/ ")).toBe("http://host/v1");
    expect(config("openai-compat", { OPENAI_COMPAT_URL: "http://localhost:1234/v1/chat/completions" }).baseUrl).toBe(
      "http://localhost:1234/v1",
    );
  });

  it("reaches the same endpoint whichever form OPENAI_COMPAT_URL takes", async () => {
    server = await startLlmServer([{ text: "one" }, { text: "two" }]);
    for (const url of [`${server.url}/chat/completions`, server.url]) {
      const provider = new OpenAICompatibleProvider(config("openai-compat", { OPENAI_COMPAT_URL: url }));
      await provider.chat({ messages: [{ role: "user", content: "hi" }], tools: [], onDelta: () => undefined });
    }
    expect(server.requests.map((request) => request.path)).toEqual(["/v1/chat/completions", "/v1/chat/completions"]);
  });

  it("talks to Ollama through its OpenAI-compatible /v1 path", () => {
    expect(config("ollama", { OLLAMA_URL: "http://gpu-box:11434/" }).baseUrl).toBe("http://gpu-box:11434/v1");
    expect(config("ollama", { OLLAMA_URL: "http://gpu-box:11434/v1" }).baseUrl).toBe("http://gpu-box:11434/v1");
  });
});

describe("timeouts", () => {
  it("defaults to 180 s per request, 900 s in coding mode, and 120 s of stream silence", () => {
    expect(config("openai")).toMatchObject({ timeoutMs: 180_000, idleTimeoutMs: 120_000 });
    expect(config("openai", {}, { codingMode: true }).timeoutMs).toBe(900_000);
  });

  it("reads MARVIN_REQUEST_TIMEOUT and MARVIN_STREAM_IDLE_TIMEOUT in seconds", () => {
    const env = { MARVIN_REQUEST_TIMEOUT: "30", MARVIN_STREAM_IDLE_TIMEOUT: "0.5" };
    expect(config("openai", env, { codingMode: true })).toMatchObject({ timeoutMs: 30_000, idleTimeoutMs: 500 });
  });

  it("ignores values that are not positive numbers", () => {
    for (const value of ["abc", "0", "-5", ""]) {
      expect(config("openai", { MARVIN_REQUEST_TIMEOUT: value, MARVIN_STREAM_IDLE_TIMEOUT: value })).toMatchObject({
        timeoutMs: 180_000,
        idleTimeoutMs: 120_000,
      });
    }
  });
});

describe("missingConfiguration", () => {
  it("names the variable to set when a key is missing", () => {
    expect(missingConfiguration(config("openai"), {})).toBe("openai needs an API key: set OPENAI_API_KEY");
    expect(missingConfiguration(config("groq"), {})).toBe(
      "groq needs an API key: set GROQ_API_KEY (or ~/.ssh/GROQ_API_KEY)",
    );
    expect(missingConfiguration(config("openai", { OPENAI_API_KEY: "sk" }), {})).toBeUndefined();
  });

  it("lets a keyless local OpenAI-compatible server through when its URL is set", () => {
    expect(missingConfiguration(config("openai-compat"), {})).toContain("openai-compat needs OPENAI_COMPAT_API_KEY");
    const env = { OPENAI_COMPAT_URL: "http://127.0.0.1:8080/v1" };
    expect(missingConfiguration(config("openai-compat", env), env)).toBeUndefined();
  });

  it("never blocks Copilot or Ollama here (they report their own problems)", () => {
    expect(missingConfiguration(config("copilot"), {})).toBeUndefined();
    expect(missingConfiguration(config("ollama"), {})).toBeUndefined();
  });
});
