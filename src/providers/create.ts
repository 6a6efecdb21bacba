import type { Env } from "../shared/env.js";
import type { ProviderConfig } from "./descriptor.js";
import { providerDescriptor } from "./registry.js";
import type { LLMProvider } from "./types.js";

/** Builds an adapter; each SDK is imported only when its provider is used. */
export function createProvider(config: ProviderConfig, env: Env): Promise<LLMProvider> {
  return providerDescriptor(config.name).create(config, env);
}
