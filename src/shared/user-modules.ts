import { readdir } from "node:fs/promises";
import { extname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { errorMessage } from "./error-message.js";
import { loadTypeScriptModules } from "./typescript-loader.js";

const JAVASCRIPT = new Set([".js", ".mjs"]);
const TYPESCRIPT = new Set([".ts", ".mts"]);

/** A module file of the user's config dir: its exports, or why it could not be loaded. */
type UserModule = { file: string; exports: Record<string, unknown> } | { file: string; problem: string };

/**
 * Imports every JavaScript or TypeScript module (`.js`, `.mjs`, `.ts`, `.mts`) of
 * `dir`, in name order. A missing directory is no modules; a module that fails to load is a
 * problem for the person, never a throw. Only ever called with a directory of the user's own
 * config: modules run with Marvin's rights.
 */
export async function importUserModules(dir: string): Promise<UserModule[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    return [{ file: dir, problem: errorMessage(error) }];
  }
  const modules: UserModule[] = [];
  for (const name of names) {
    const file = join(dir, name);
    const extension = extname(name);
    if (!JAVASCRIPT.has(extension) && !TYPESCRIPT.has(extension)) continue;
    if (TYPESCRIPT.has(extension)) loadTypeScriptModules();
    try {
      modules.push({ file, exports: (await import(pathToFileURL(file).href)) as Record<string, unknown> });
    } catch (error) {
      modules.push({ file, problem: errorMessage(error).split("\n")[0]! });
    }
  }
  return modules;
}
