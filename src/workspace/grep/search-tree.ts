import type { Env } from "../../shared/env.js";
import { builtinSearch, searchOverrides } from "./builtin.js";
import type { GrepQuery, GrepSearchResult } from "./format.js";
import { ripgrepSearch } from "./ripgrep.js";
import { unsafeIgnoreFiles } from "./walk-files.js";

/**
 * ripgrep opens the ignore files of the directories it searches itself: it is left to do so only
 * when none is a symlink leading out of the root or a FIFO (the built-in search skips those).
 */
async function ripgrepMayRead(root: string, query: GrepQuery, signal: AbortSignal): Promise<boolean> {
  return (await unsafeIgnoreFiles(root, query.searchPath, searchOverrides(query), signal)).length === 0;
}

/**
 * Searches `query.searchPath` (a directory, or a single file when `isFile`) below the real path
 * `root`: with ripgrep when it is installed and may safely run, otherwise with the built-in
 * engine. Nothing outside `root` is read, whatever symlinks the tree holds.
 */
export async function searchTree(
  root: string,
  query: GrepQuery,
  options: { env: Env; signal: AbortSignal; isFile?: boolean },
): Promise<GrepSearchResult> {
  const { env, signal } = options;
  const ripgrep = options.isFile ? true : await ripgrepMayRead(root, query, signal);
  const found = ripgrep ? await ripgrepSearch(root, query, env, signal) : undefined;
  return found ?? (await builtinSearch(root, query, signal));
}
