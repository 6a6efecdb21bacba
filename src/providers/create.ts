import type { Env } from "../shared/env.js";
import type { ProviderConfig } from "./descriptor.js";
import { plainHttpKeyProblem } from "./key-transport.js";
import { providerDescriptor } from "./registry.js";
import type { LLMProvider } from "./types.js";

/**
 * Builds an adapter; each SDK is imported only when its provider is used. Refused, before any connection, when it
 * would send its API key over plain http to another machine.
 */
export async function createProvider(config: ProviderConfig, env: Env): Promise<LLMProvider> {
  const problem = plainHttpKeyProblem(config, env);
  if (problem) throw new Error(problem);
  return providerDescriptor(config.name).create(config, env);
}
