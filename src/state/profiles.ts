import { readdir, stat } from "node:fs/promises";
import { type Loaded, loadStateFile, writeFileAtomic } from "./atomic-file.js";
import { type ConfigPaths, isValidProfileName, type ProfilePaths, profilePaths } from "./paths.js";
import { DEFAULT_PREFERENCES_YAML } from "./preferences.js";
import { ensurePrivateDir } from "./private-dir.js";

export const DEFAULT_PROFILE = "main";

/** Which profiles exist and which one is active (`last_profile`). */
export class ProfileStore {
  constructor(readonly config: ConfigPaths) {}

  paths(name: string): ProfilePaths {
    return profilePaths(this.config, name);
  }

  /** The profile named in `last_profile`; the default one when it names none (a warning when it is unreadable). */
  async activeName(): Promise<Loaded<string>> {
    const parse = (text: string) => {
      const saved = text.trim();
      return { value: isValidProfileName(saved) ? saved : DEFAULT_PROFILE };
    };
    return loadStateFile(
      this.config.lastProfile,
      parse,
      () => DEFAULT_PROFILE,
      `the profile '${DEFAULT_PROFILE}' is used`,
    );
  }

  async list(): Promise<string[]> {
    try {
      const entries = await readdir(this.config.profilesDir, { withFileTypes: true });
      return entries
        .filter((entry) => entry.isDirectory() && isValidProfileName(entry.name))
        .map((entry) => entry.name)
        .sort();
    } catch {
      return [];
    }
  }

  async exists(name: string): Promise<boolean> {
    try {
      return (await stat(this.paths(name).dir)).isDirectory();
    } catch {
      return false;
    }
  }

  /**
   * Creates the profile directory with default preferences if it does not exist yet, and keeps it
   * owner-only: it holds the chat log, the input history and the saved conversations.
   */
  async ensure(name: string): Promise<{ created: boolean }> {
    if (!isValidProfileName(name)) {
      throw new Error(`Invalid profile name '${name}': use letters, digits, '.', '_' or '-' (max 64 characters).`);
    }
    const existed = await this.exists(name);
    const paths = this.paths(name);
    await ensurePrivateDir(paths.dir);
    if (existed) return { created: false };
    await writeFileAtomic(paths.preferences, DEFAULT_PREFERENCES_YAML);
    return { created: true };
  }

  async setActive(name: string): Promise<{ created: boolean }> {
    const result = await this.ensure(name);
    await writeFileAtomic(this.config.lastProfile, `${name}\n`);
    return result;
  }
}
