import { join } from "node:path";
import { ensureInsideDir, OWN_DIRS } from "../../../workspace/own-dirs.js";
import { createTextFile } from "../../../workspace/text-file.js";

/** The project's memories folder (seed 004 §6.13): findings and dumps kept across sessions. */
export const MEMORIES_DIR = OWN_DIRS.memories;

/**
 * Creates `.marvin/memories/<name>` under the working dir; false when that name is taken. The
 * folder is checked at every write: one that is a symlink leading out of the working dir is refused.
 */
export async function createMemoryFile(workingDir: string, name: string, content: string): Promise<boolean> {
  const folder = await ensureInsideDir(workingDir, OWN_DIRS.memories);
  return createTextFile(join(folder, name), content);
}
