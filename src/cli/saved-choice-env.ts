import { withSavedChoice } from "../providers/saved-choice.js";
import type { Env } from "../shared/env.js";
import { loadProviderChoice } from "../state/provider-choice.js";

/** The environment with the active profile's saved provider choice filled in (a warning when it was unreadable). */
export async function environmentWithChoice(env: Env, home: string, warn: (text: string) => void): Promise<Env> {
  const { choice, warning } = await loadProviderChoice(home);
  if (warning) warn(warning);
  return withSavedChoice(env, choice);
}
