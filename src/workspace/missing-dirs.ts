import { lstat } from "node:fs/promises";
import { dirname } from "node:path";

/** Directories between `path` and its deepest existing ancestor, deepest first: what writing `path` would create. */
export async function missingAncestors(path: string): Promise<string[]> {
  const missing: string[] = [];
  for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) {
    if (
      await lstat(dir).then(
        () => true,
        () => false,
      )
    )
      break;
    missing.push(dir);
  }
  return missing;
}
