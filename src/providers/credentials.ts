import type { Env } from "../shared/env.js";
import { copilotCredentialVariables } from "./copilot/credentials.js";
import { providerDescriptor } from "./registry.js";
import type { ProviderName } from "./types.js";

/** The variables that carry `provider`'s own credential (and, for Copilot, the runtime's settings). */
export function providerCredentialVariables(provider: ProviderName, env: Env): string[] {
  if (provider === "copilot") return copilotCredentialVariables(env);
  const keyEnv = providerDescriptor(provider).defaults.keyEnv;
  return keyEnv ? [keyEnv] : [];
}
