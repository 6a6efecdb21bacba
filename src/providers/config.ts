import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ProviderName } from "./types.js";

export type Env = Readonly<Record<string, string | undefined>>;

interface ProviderDefaults {
  model: string;
  baseUrl?: string;
  modelEnv?: string;
  urlEnv?: string;
  keyEnv?: string;
  /** File under ~/.ssh/ read when the key variable is unset. */
  keyFile?: string;
}

/** Seed 000 §3.4 / 002 §3. */
export const PROVIDER_DEFAULTS: Record<ProviderName, ProviderDefaults> = {
  copilot: { model: "claude-haiku-4.5", modelEnv: "MARVIN_CHAT_MODEL" },
  gemini: {
    model: "gemini-3-pro-preview",
    baseUrl: "https://generativelanguage.googleapis.com/v1beta/openai/",
    modelEnv: "GEMINI_MODEL",
    keyEnv: "GEMINI_API_KEY",
    keyFile: "GEMINI_API_KEY",
  },
  groq: {
    model: "llama-3.3-70b-versatile",
    baseUrl: "https://api.groq.com/openai/v1",
    modelEnv: "GROQ_MODEL",
    keyEnv: "GROQ_API_KEY",
    keyFile: "GROQ_API_KEY",
  },
  openai: { model: "gpt-5.1", baseUrl: "https://api.openai.com/v1", keyEnv: "OPENAI_API_KEY" },
  ollama: { model: "qwen3-coder:30b", baseUrl: "http://localhost:11434", modelEnv: "OLLAMA_MODEL", urlEnv: "OLLAMA_URL" },
  "openai-compat": {
    model: "qwen/qwen3-32b",
    baseUrl: "https://openrouter.ai/api/v1/chat/completions",
    modelEnv: "OPENAI_COMPAT_MODEL",
    urlEnv: "OPENAI_COMPAT_URL",
    keyEnv: "OPENAI_COMPAT_API_KEY",
  },
};

export interface ProviderConfig {
  name: ProviderName;
  model: string;
  /** Base URL for the OpenAI SDK (…/v1), never the full …/chat/completions endpoint. */
  baseUrl?: string;
  apiKey?: string;
  /** Env var (or ~/.ssh file) the key comes from, for error messages. */
  keyHint?: string;
  /** Whole-request limit: 180 s normally, 900 s in coding mode. */
  timeoutMs: number;
  /** Longest silence allowed between two stream chunks. */
  idleTimeoutMs: number;
}

export interface ProviderConfigOptions {
  env: Env;
  home: string;
  codingMode: boolean;
  /** Explicit model (the --model flag), highest precedence. */
  model?: string;
  /** MARVIN_MODEL applies to non-interactive runs only. */
  nonInteractive: boolean;
}

/** An API key from its variable, else from `~/.ssh/<NAME>` where the seeds allow it. */
export function resolveApiKey(name: ProviderName, env: Env, home: string): string | undefined {
  const defaults = PROVIDER_DEFAULTS[name];
  if (!defaults.keyEnv) return undefined;
  const fromEnv = env[defaults.keyEnv]?.trim();
  if (fromEnv) return fromEnv;
  if (!defaults.keyFile) return undefined;
  try {
    const fromFile = readFileSync(join(home, ".ssh", defaults.keyFile), "utf8").trim();
    return fromFile || undefined;
  } catch {
    return undefined;
  }
}

/** Accepts a base URL or a full `…/chat/completions` endpoint and returns the base. */
export function normalizeBaseUrl(url: string): string {
  let base = url.trim().replace(/\/+$/, "");
  base = base.replace(/\/chat\/completions$/, "");
  return base;
}

function ollamaBaseUrl(url: string): string {
  const base = normalizeBaseUrl(url);
  return base.endsWith("/v1") ? base : `${base}/v1`;
}

function secondsFromEnv(env: Env, name: string, fallbackSeconds: number): number {
  const raw = env[name];
  const seconds = raw === undefined ? NaN : Number(raw);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : fallbackSeconds * 1000;
}

export function resolveProviderConfig(name: ProviderName, options: ProviderConfigOptions): ProviderConfig {
  const { env } = options;
  const defaults = PROVIDER_DEFAULTS[name];
  const model =
    options.model ||
    (options.nonInteractive ? env.MARVIN_MODEL : undefined) ||
    (defaults.modelEnv ? env[defaults.modelEnv] : undefined) ||
    defaults.model;
  const urlFromEnv = defaults.urlEnv ? env[defaults.urlEnv]?.trim() : undefined;
  const rawUrl = urlFromEnv || defaults.baseUrl;
  const baseUrl = rawUrl === undefined ? undefined : name === "ollama" ? ollamaBaseUrl(rawUrl) : normalizeBaseUrl(rawUrl);
  const keyHint = defaults.keyEnv
    ? defaults.keyFile
      ? `${defaults.keyEnv} (or ~/.ssh/${defaults.keyFile})`
      : defaults.keyEnv
    : undefined;
  return {
    name,
    model,
    baseUrl,
    apiKey: resolveApiKey(name, env, options.home),
    keyHint,
    timeoutMs: secondsFromEnv(env, "MARVIN_REQUEST_TIMEOUT", options.codingMode ? 900 : 180),
    idleTimeoutMs: secondsFromEnv(env, "MARVIN_STREAM_IDLE_TIMEOUT", 120),
  };
}

/** Why this provider cannot be used as configured, or undefined when it can. */
export function missingConfiguration(config: ProviderConfig, env: Env): string | undefined {
  switch (config.name) {
    case "copilot":
    case "ollama":
      return undefined;
    case "openai-compat":
      // Local OpenAI-compatible servers (vLLM, LM Studio, llama.cpp) need no key.
      if (config.apiKey || env.OPENAI_COMPAT_URL?.trim()) return undefined;
      return "openai-compat needs OPENAI_COMPAT_API_KEY (or OPENAI_COMPAT_URL pointing at a server that needs no key)";
    default:
      return config.apiKey ? undefined : `${config.name} needs an API key: set ${config.keyHint}`;
  }
}
