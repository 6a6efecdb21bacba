import type { Env } from "../shared/env.js";
import { copilotCredentialVariables } from "./copilot/credentials.js";
import { providerDescriptor } from "./registry.js";
import type { ProviderName } from "./types.js";

/**
 * The variables that carry `provider`'s own credential: its key and its base URL, which may hold a
 * password (`https://user:pw@proxy/v1`); for Copilot, the runtime's settings.
 */
export function providerCredentialVariables(provider: ProviderName, env: Env): string[] {
  if (provider === "copilot") return copilotCredentialVariables(env);
  const { keyEnv, urlEnv } = providerDescriptor(provider).defaults;
  return [keyEnv, urlEnv].filter((name): name is string => name !== undefined);
}
