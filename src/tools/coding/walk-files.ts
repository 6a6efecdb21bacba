import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { GlobOverrides } from "./glob.js";
import { IgnoreRules } from "./ignore-rules.js";

export interface WalkedFile {
  absolute: string;
  /** Posix path relative to the root. */
  relative: string;
}

/**
 * Every file ripgrep would search under `start` (posix, relative to `root`): hidden files
 * included, symlinks not followed, ignore files and glob overrides applied. An explicit
 * file as `start` is returned as is.
 */
export async function listSearchFiles(root: string, start: string, overrides: GlobOverrides, signal: AbortSignal): Promise<WalkedFile[]> {
  const startRelative = start === "." ? "" : start;
  const info = await stat(join(root, startRelative));
  if (!info.isDirectory()) return [{ absolute: join(root, startRelative), relative: startRelative }];
  const files: WalkedFile[] = [];

  async function walk(directory: string, rulesFor: (names: ReadonlySet<string>) => Promise<IgnoreRules>): Promise<void> {
    if (signal.aborted) return;
    const entries = await readdir(join(root, directory), { withFileTypes: true }).catch(() => []);
    const rules = await rulesFor(new Set(entries.map((entry) => entry.name)));
    const children: Array<Promise<void>> = [];
    for (const entry of entries) {
      const isDirectory = entry.isDirectory();
      if (!isDirectory && !entry.isFile()) continue; // symlinks are not followed, as in ripgrep
      const relative = directory ? `${directory}/${entry.name}` : entry.name;
      const decision = overrides.decide(relative, isDirectory);
      if (decision === "exclude" || (decision === undefined && rules.ignores(relative, isDirectory))) continue;
      if (isDirectory) children.push(walk(relative, (names) => rules.descend(root, relative, names)));
      else files.push({ absolute: join(root, relative), relative });
    }
    await Promise.all(children);
  }

  await walk(startRelative, () => IgnoreRules.forDirectory(root, startRelative));
  return files;
}
