import type { Env } from "../shared/env.js";
import { resolveProviderConfig } from "./config.js";
import { createProvider } from "./create.js";
import type { Fallback } from "./resilient-chat.js";
import { providerProblem } from "./select.js";
import type { LLMProvider } from "./types.js";

/** MARVIN_COPILOT_FALLBACK: Copilot answers for a failed provider never, for remote ones (default), or for all. */
type FallbackSetting = "off" | "remote" | "on";

function fallbackSetting(env: Env): FallbackSetting {
  const value = env.MARVIN_COPILOT_FALLBACK?.trim().toLowerCase();
  if (value === "off" || value === "0" || value === "false" || value === "no") return "off";
  if (value === "on" || value === "1" || value === "true" || value === "yes") return "on";
  return "remote";
}

interface FallbackPlaces {
  env: Env;
  home: string;
  nonInteractive: boolean;
}

/**
 * The Copilot fallback the settings allow: none with MARVIN_COPILOT_FALLBACK=off; else Copilot
 * (made once, on first need, when it is usable) for a failed provider on the internet, and for a
 * local one (Ollama, a loopback or private URL) only with MARVIN_COPILOT_FALLBACK=on: whoever
 * chose a local model chose to keep the conversation on their own machines.
 */
export function copilotFallback({ env, home, nonInteractive }: FallbackPlaces): Fallback | undefined {
  const setting = fallbackSetting(env);
  if (setting === "off") return undefined;
  let copilot: Promise<LLMProvider | undefined> | undefined;
  return (failed) => {
    if (failed.local && setting !== "on") return Promise.resolve(undefined);
    copilot ??= providerProblem("copilot", env, home).then((problem) => {
      if (problem) return undefined;
      const options = { env, home, codingMode: nonInteractive, nonInteractive };
      return createProvider(resolveProviderConfig("copilot", options), env);
    });
    return copilot;
  };
}
