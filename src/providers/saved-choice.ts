import type { Env } from "../shared/env.js";
import { parseProviderName, providerDescriptor } from "./registry.js";

interface SavedChoice {
  provider: string;
  model?: string;
  baseUrl?: string;
}

/**
 * The environment with the choice `marvin setup` saved filled in where nothing else decides: the provider when
 * LLM_PROVIDER is unset, its model and endpoint when their variables are (flags still win over all of it).
 */
export function withSavedChoice(env: Env, saved: SavedChoice | undefined): Env {
  const name = saved ? parseProviderName(saved.provider) : undefined;
  if (!saved || !name) return env;
  const filled: Record<string, string | undefined> = { ...env };
  const fill = (variable: string | undefined, value: string | undefined) => {
    if (variable && value && !env[variable]?.trim()) filled[variable] = value;
  };
  fill("LLM_PROVIDER", name);
  const { modelEnv, urlEnv } = providerDescriptor(name).defaults;
  fill(modelEnv, saved.model);
  fill(urlEnv, saved.baseUrl);
  return filled;
}
