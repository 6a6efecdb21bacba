import type { Env } from "../shared/env.js";
import type { ListedModel } from "./models/listed-model.js";
import type { LLMProvider, ProviderName } from "./types.js";

/** Where a provider's model, URL and key come from, and their defaults (seed 000 §3.4 / 002 §3). */
export interface ProviderDefaults {
  model: string;
  baseUrl?: string;
  modelEnv?: string;
  urlEnv?: string;
  keyEnv?: string;
  /** File under ~/.ssh/ read when the key variable is unset. */
  keyFile?: string;
}

/** A provider's resolved settings (./config.ts resolves them), the one thing its adapter is built from. */
export interface ProviderConfig {
  name: ProviderName;
  model: string;
  /**
   * Where the provider's API lives: for OpenAI-compatible ones the base URL (…/v1, never the full
   * …/chat/completions endpoint); for Anthropic, Gemini and Ollama the server root their adapters add paths to.
   */
  baseUrl?: string;
  apiKey?: string;
  /** Env var (or ~/.ssh file) the key comes from, for error messages. */
  keyHint?: string;
  /** Whole-request limit: 180 s normally, 900 s in coding mode. */
  timeoutMs: number;
  /** Longest silence allowed between two stream chunks. */
  idleTimeoutMs: number;
}

/** What a probe may look at besides the resolved configuration. */
export interface ProviderFacts {
  env: Env;
  home: string;
}

/**
 * How a provider is found when neither --provider nor LLM_PROVIDER names one:
 * - `default`: chosen as soon as its probe passes, before any other (Copilot);
 * - `setting`: a candidate when `evidence` finds its key or URL set;
 * - `probe`: a candidate when its probe passes (a local server answering).
 * Marvin picks a candidate only when it is the only one.
 */
export type AutoDetection =
  | { by: "default" }
  | { by: "setting"; evidence: (config: ProviderConfig, env: Env) => string | undefined }
  | { by: "probe"; evidence: (config: ProviderConfig) => string };

/**
 * Everything Marvin knows about one provider. Each lives in its own folder and is listed once
 * in ./registry.ts; selection, creation, `!model`, the status bar, `--help` and the "how to
 * configure" message all read it from there.
 */
export interface ProviderDescriptor<Name extends string = string> {
  readonly name: Name;
  /** Shown before the provider in the TUI status bar. */
  readonly icon: string;
  readonly defaults: ProviderDefaults;
  /** Turns a configured URL into the base URL the adapter expects; default: `normalizeBaseUrl`. */
  readonly baseUrl?: (url: string) => string;
  /** Turns a model name as typed into the one the provider knows (OpenRouter's `vendor/model`); default: as typed. */
  readonly modelName?: (model: string) => string;
  /** True for a subscription that covers what its models use (the ChatGPT plan): its cost shows as the plan's. */
  readonly coveredByPlan?: boolean;
  /** How to set it up: its line in the "how to configure" message. */
  readonly setupHint: string;
  readonly autoDetect: AutoDetection;
  /** Why it cannot be used as configured (a missing key), or undefined; no I/O beyond the config. */
  missingConfiguration(config: ProviderConfig, env: Env): string | undefined;
  /** A closer look whether it can work here (a sign-in, a server answering): the problem, or undefined. */
  probe?(config: ProviderConfig, facts: ProviderFacts): Promise<string | undefined>;
  /** Builds the adapter; imports its SDK only now, so unused providers cost no startup time. */
  create(config: ProviderConfig, env: Env): Promise<LLMProvider>;
  /** The models its endpoint really has (one cheap request); throws with the reason when it cannot say. */
  listModels?(config: ProviderConfig, env: Env): Promise<ListedModel[]>;
}

/** The usual `missingConfiguration` of a provider that needs nothing but an API key. */
export function apiKeyProblem(config: ProviderConfig): string | undefined {
  return config.apiKey ? undefined : `${config.name} needs an API key: set ${config.keyHint}`;
}
