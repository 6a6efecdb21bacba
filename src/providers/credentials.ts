import type { Env } from "../shared/env.js";
import { COPILOT_TOKEN_VARIABLES } from "./copilot/errors.js";
import { providerDescriptor } from "./registry.js";
import type { ProviderName } from "./types.js";

/** The variables that carry `provider`'s own credential (and, for Copilot, the runtime's settings). */
export function providerCredentialVariables(provider: ProviderName, env: Env): string[] {
  if (provider === "copilot") {
    const tokens: readonly string[] = COPILOT_TOKEN_VARIABLES;
    return Object.keys(env).filter((name) => tokens.includes(name) || name.startsWith("COPILOT_"));
  }
  const keyEnv = providerDescriptor(provider).defaults.keyEnv;
  return keyEnv ? [keyEnv] : [];
}
