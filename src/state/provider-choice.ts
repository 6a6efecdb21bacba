import { z } from "zod";
import { loadJsonFile, writeJsonAtomic } from "./atomic-file.js";
import { configPaths } from "./paths.js";
import { ProfileStore } from "./profiles.js";

/** What `marvin setup` saved in a profile: the provider, and its model and endpoint when chosen. */
export interface ProviderChoice {
  provider: string;
  model?: string;
  baseUrl?: string;
}

const choiceSchema = z.object({
  provider: z.string().min(1),
  model: z.string().min(1).optional(),
  baseUrl: z.string().min(1).optional(),
});

/** The active profile's `provider.json` (its path too); an unreadable one is moved aside with a warning. */
export async function loadProviderChoice(
  home: string,
): Promise<{ path: string; choice?: ProviderChoice; warning?: string }> {
  const profiles = new ProfileStore(configPaths(home));
  // Read first here: an unreadable last_profile is moved aside now, so its warning is said now or never.
  const active = await profiles.activeName();
  const path = profiles.paths(active.value).providerChoice;
  const loaded = await loadJsonFile<ProviderChoice | null>(
    path,
    (raw) => {
      const parsed = choiceSchema.safeParse(raw);
      return parsed.success ? parsed.data : undefined;
    },
    () => null,
  );
  const warning = [active.warning, loaded.warning].filter(Boolean).join("\n");
  return {
    path,
    ...(loaded.value ? { choice: loaded.value } : {}),
    ...(warning ? { warning } : {}),
  };
}

export async function saveProviderChoice(path: string, choice: ProviderChoice): Promise<void> {
  await writeJsonAtomic(path, choice);
}
