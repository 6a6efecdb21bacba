import type { Env } from "../../shared/env.js";

/** The token variables the bundled Copilot runtime reads, in its own order of precedence. */
export const COPILOT_TOKEN_VARIABLES = ["COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN"] as const;

/** The variables of `env` that are Copilot's own: its tokens and the runtime's settings (COPILOT_*). */
export function copilotCredentialVariables(env: Env): string[] {
  const tokens: readonly string[] = COPILOT_TOKEN_VARIABLES;
  return Object.keys(env).filter((name) => tokens.includes(name) || name.startsWith("COPILOT_"));
}
