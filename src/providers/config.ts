import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Env } from "../shared/env.js";
import { normalizeBaseUrl } from "./base-url.js";
import type { ProviderConfig, ProviderDefaults } from "./descriptor.js";
import { PROVIDERS, providerDescriptor } from "./registry.js";
import type { ProviderName } from "./types.js";

export { normalizeBaseUrl };

/** Seed 000 §3.4 / 002 §3: each provider's defaults, from its descriptor. */
export const PROVIDER_DEFAULTS = Object.fromEntries(
  PROVIDERS.map((provider) => [provider.name, provider.defaults]),
) as Record<ProviderName, ProviderDefaults>;

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
  const defaults = providerDescriptor(name).defaults;
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

function secondsFromEnv(env: Env, name: string, fallbackSeconds: number): number {
  const raw = env[name];
  const seconds = raw === undefined ? NaN : Number(raw);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : fallbackSeconds * 1000;
}

export function resolveProviderConfig(name: ProviderName, options: ProviderConfigOptions): ProviderConfig {
  const { env } = options;
  const descriptor = providerDescriptor(name);
  const defaults = descriptor.defaults;
  const typedModel =
    options.model ||
    (options.nonInteractive ? env.MARVIN_MODEL : undefined) ||
    (defaults.modelEnv ? env[defaults.modelEnv] : undefined) ||
    defaults.model;
  const model = descriptor.modelName ? descriptor.modelName(typedModel) : typedModel;
  const urlFromEnv = defaults.urlEnv ? env[defaults.urlEnv]?.trim() : undefined;
  const rawUrl = urlFromEnv || defaults.baseUrl;
  const baseUrl = rawUrl === undefined ? undefined : (descriptor.baseUrl ?? normalizeBaseUrl)(rawUrl);
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
  return providerDescriptor(config.name).missingConfiguration(config, env);
}
