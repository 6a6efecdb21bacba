import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { REPO_ROOT } from "../tests/support/run-marvin.js";

/** A module of the built marvin (`dist/`, what `npm run build` made), typed by its source. */
export async function builtModule<Module>(path: string): Promise<Module> {
  return (await import(pathToFileURL(join(REPO_ROOT, "dist", path)).href)) as Module;
}
