import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "../../tests/support/fixtures.js";
import type { Env } from "../shared/env.js";
import { ChatCompletionsProvider } from "./chat-completions/index.js";
import {
  missingConfiguration,
  normalizeBaseUrl,
  PROVIDER_DEFAULTS,
  type ProviderConfigOptions,
  resolveApiKey,
  resolveProviderConfig,
} from "./config.js";
import { finalAnswer } from "./final-answer.js";
import type { ProviderName } from "./types.js";

function config(home: string, name: ProviderName, env: Env = {}, options: Partial<ProviderConfigOptions> = {}) {
  return resolveProviderConfig(name, { env, home, codingMode: false, nonInteractive: false, ...options });
}

async function sshKey(home: string, name: string, value: string): Promise<void> {
  await mkdir(join(home, ".ssh"), { recursive: true });
  await writeFile(join(home, ".ssh", name), value);
}

describe("provider defaults (seed 000 §3.4, 002 §3)", () => {
  test("uses the seeds' models and endpoints", ({ home }) => {
    expect(config(home, "copilot").model).toBe("claude-haiku-4.5");
    expect(config(home, "anthropic")).toMatchObject({
      model: "claude-sonnet-5-5",
      baseUrl: "https://api.anthropic.com",
      keyHint: "ANTHROPIC_API_KEY (or ~/.ssh/ANTHROPIC_API_KEY)",
    });
    expect(config(home, "gemini")).toMatchObject({
      model: "gemini-3-pro-preview",
      baseUrl: "https://generativelanguage.googleapis.com",
    });
    expect(config(home, "groq")).toMatchObject({
      model: "llama-3.3-70b-versatile",
      baseUrl: "https://api.groq.com/openai/v1",
    });
    expect(config(home, "openai")).toMatchObject({ model: "gpt-5.1", baseUrl: "https://api.openai.com/v1" });
    expect(config(home, "ollama")).toMatchObject({ model: "qwen3-coder:30b", baseUrl: "http://localhost:11434" });
    expect(config(home, "openai-compat")).toMatchObject({
      model: "qwen/qwen3-32b",
      baseUrl: "https://openrouter.ai/api/v1",
    });
    expect(PROVIDER_DEFAULTS["openai-compat"].baseUrl).toBe("https://openrouter.ai/api/v1/chat/completions");
  });
});

describe("model selection", () => {
  test("reads each provider's model variable", ({ home }) => {
    expect(config(home, "groq", { GROQ_MODEL: "llama-3.1-8b-instant" }).model).toBe("llama-3.1-8b-instant");
    expect(config(home, "gemini", { GEMINI_MODEL: "gemini-2.5-flash" }).model).toBe("gemini-2.5-flash");
    expect(config(home, "ollama", { OLLAMA_MODEL: "llama3" }).model).toBe("llama3");
    expect(config(home, "openai-compat", { OPENAI_COMPAT_MODEL: "deepseek/deepseek-chat" }).model).toBe(
      "deepseek/deepseek-chat",
    );
    expect(config(home, "copilot", { MARVIN_CHAT_MODEL: "gpt-5.2" }).model).toBe("gpt-5.2");
  });

  test("applies MARVIN_MODEL to non-interactive runs only, and --model above everything", ({ home }) => {
    const env = { GROQ_MODEL: "from-groq-model", MARVIN_MODEL: "from-marvin-model" };
    expect(config(home, "groq", env).model).toBe("from-groq-model");
    expect(config(home, "groq", env, { nonInteractive: true }).model).toBe("from-marvin-model");
    expect(config(home, "groq", env, { nonInteractive: true, model: "from-flag" }).model).toBe("from-flag");
  });
});

describe("API keys", () => {
  test("reads the variable first, then ~/.ssh/<NAME> for Groq and Gemini", async ({ home }) => {
    await sshKey(home, "GROQ_API_KEY", "gsk-from-file\n");
    await sshKey(home, "GEMINI_API_KEY", "  gem-from-file  ");
    expect(resolveApiKey("groq", {}, home)).toBe("gsk-from-file");
    expect(resolveApiKey("gemini", {}, home)).toBe("gem-from-file");
    expect(resolveApiKey("groq", { GROQ_API_KEY: "gsk-from-env" }, home)).toBe("gsk-from-env");
    expect(config(home, "groq")).toMatchObject({
      apiKey: "gsk-from-file",
      keyHint: "GROQ_API_KEY (or ~/.ssh/GROQ_API_KEY)",
    });
  });

  test("reads OpenAI's and the OpenAI-compatible endpoint's keys from ~/.ssh too, where setup saves them", async ({
    home,
  }) => {
    await sshKey(home, "OPENAI_API_KEY", "sk-file");
    await sshKey(home, "OPENAI_COMPAT_API_KEY", "compat-file");
    expect(resolveApiKey("openai", {}, home)).toBe("sk-file");
    expect(resolveApiKey("openai-compat", {}, home)).toBe("compat-file");
    expect(resolveApiKey("openai", { OPENAI_API_KEY: " sk-env " }, home)).toBe("sk-env");
    expect(config(home, "openai").keyHint).toBe("OPENAI_API_KEY (or ~/.ssh/OPENAI_API_KEY)");
  });

  test("ignores an empty key file or variable", async ({ home }) => {
    await sshKey(home, "GROQ_API_KEY", "\n");
    expect(resolveApiKey("groq", { GROQ_API_KEY: "  " }, home)).toBeUndefined();
  });

  test("needs no key for Copilot and Ollama", ({ home }) => {
    expect(resolveApiKey("copilot", {}, home)).toBeUndefined();
    expect(resolveApiKey("ollama", {}, home)).toBeUndefined();
  });
});

describe("URLs", () => {
  test("accepts OPENAI_COMPAT_URL as a full …/chat/completions endpoint or as a base URL", ({ home }) => {
    expect(normalizeBaseUrl("https://openrouter.ai/api/v1/chat/completions")).toBe("https://openrouter.ai/api/v1");
    expect(normalizeBaseUrl("http://127.0.0.1:8000/v1/")).toBe("http://127.0.0.1:8000/v1");
    expect(normalizeBaseUrl(" http://host/v1/chat/completions/ ")).toBe("http://host/v1");
    expect(
      config(home, "openai-compat", { OPENAI_COMPAT_URL: "http://localhost:1234/v1/chat/completions" }).baseUrl,
    ).toBe("http://localhost:1234/v1");
  });

  test("reaches the same endpoint whichever form OPENAI_COMPAT_URL takes", async ({ home, llm }) => {
    const server = await llm([{ text: "one" }, { text: "two" }]);
    for (const url of [`${server.url}/chat/completions`, server.url]) {
      const provider = new ChatCompletionsProvider(config(home, "openai-compat", { OPENAI_COMPAT_URL: url }));
      await finalAnswer(provider.stream({ messages: [{ role: "user", content: "hi" }], tools: [] }));
    }
    expect(server.requests.map((request) => request.path)).toEqual(["/v1/chat/completions", "/v1/chat/completions"]);
  });

  test("takes ANTHROPIC_BASE_URL as the server root, like Anthropic's SDKs, or as the full endpoint", ({ home }) => {
    const baseUrl = (url: string) => config(home, "anthropic", { ANTHROPIC_BASE_URL: url }).baseUrl;
    expect(baseUrl("https://gateway.example/anthropic/")).toBe("https://gateway.example/anthropic");
    expect(baseUrl("http://127.0.0.1:8080/v1/messages")).toBe("http://127.0.0.1:8080");
  });

  test("takes GEMINI_BASE_URL as the server root, with or without the API version", ({ home }) => {
    const at = (url: string) => config(home, "gemini", { GEMINI_BASE_URL: url }).baseUrl;
    expect(at("https://gateway.example/google/")).toBe("https://gateway.example/google");
    expect(at("https://gateway.example/google/v1beta")).toBe("https://gateway.example/google");
  });

  test("takes OLLAMA_URL as the server root, an OpenAI-compatible …/v1 URL included", ({ home }) => {
    expect(config(home, "ollama", { OLLAMA_URL: "http://gpu-box:11434/" }).baseUrl).toBe("http://gpu-box:11434");
    expect(config(home, "ollama", { OLLAMA_URL: "http://gpu-box:11434/v1" }).baseUrl).toBe("http://gpu-box:11434");
  });
});

describe("timeouts", () => {
  test("defaults to 180 s per request, 900 s in coding mode, and 120 s of stream silence", ({ home }) => {
    expect(config(home, "openai")).toMatchObject({ timeoutMs: 180_000, idleTimeoutMs: 120_000 });
    expect(config(home, "openai", {}, { codingMode: true }).timeoutMs).toBe(900_000);
  });

  test("reads MARVIN_REQUEST_TIMEOUT and MARVIN_STREAM_IDLE_TIMEOUT in seconds", ({ home }) => {
    const env = { MARVIN_REQUEST_TIMEOUT: "30", MARVIN_STREAM_IDLE_TIMEOUT: "0.5" };
    expect(config(home, "openai", env, { codingMode: true })).toMatchObject({ timeoutMs: 30_000, idleTimeoutMs: 500 });
  });

  test("ignores values that are not positive numbers", ({ home }) => {
    for (const value of ["abc", "0", "-5", ""]) {
      expect(
        config(home, "openai", { MARVIN_REQUEST_TIMEOUT: value, MARVIN_STREAM_IDLE_TIMEOUT: value }),
      ).toMatchObject({
        timeoutMs: 180_000,
        idleTimeoutMs: 120_000,
      });
    }
  });
});

describe("missingConfiguration", () => {
  test("names the variable to set when a key is missing", ({ home }) => {
    expect(missingConfiguration(config(home, "openai"), {})).toBe(
      "openai needs an API key: set OPENAI_API_KEY (or ~/.ssh/OPENAI_API_KEY)",
    );
    expect(missingConfiguration(config(home, "groq"), {})).toBe(
      "groq needs an API key: set GROQ_API_KEY (or ~/.ssh/GROQ_API_KEY)",
    );
    expect(missingConfiguration(config(home, "openai", { OPENAI_API_KEY: "sk" }), {})).toBeUndefined();
  });

  test("lets a keyless local OpenAI-compatible server through when its URL is set", ({ home }) => {
    expect(missingConfiguration(config(home, "openai-compat"), {})).toContain(
      "openai-compat needs OPENAI_COMPAT_API_KEY",
    );
    const env = { OPENAI_COMPAT_URL: "http://127.0.0.1:8080/v1" };
    expect(missingConfiguration(config(home, "openai-compat", env), env)).toBeUndefined();
  });

  test("never blocks Copilot or Ollama here (they report their own problems)", ({ home }) => {
    expect(missingConfiguration(config(home, "copilot"), {})).toBeUndefined();
    expect(missingConfiguration(config(home, "ollama"), {})).toBeUndefined();
  });
});
