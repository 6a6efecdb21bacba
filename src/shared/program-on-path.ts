import { constants } from "node:fs";
import { access } from "node:fs/promises";
import { delimiter, join } from "node:path";
import type { Env } from "./env.js";

/** Whether `path` is a file this process may run. */
export async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The path of the first of `names` (in that order of preference) that is a program in a folder of `env.PATH`. */
export async function programOnPath(names: readonly string[], env: Env): Promise<string | undefined> {
  const dirs = (env.PATH ?? "").split(delimiter).filter(Boolean);
  for (const name of names) {
    for (const dir of dirs) {
      if (await isExecutable(join(dir, name))) return join(dir, name);
    }
  }
  return undefined;
}
