import { resolveInside } from "./sandbox.js";
import { createTextFile } from "./text-file.js";

/** The project's memories folder (seed 004 §6.13): findings and dumps kept across sessions. */
export const MEMORIES_DIR = ".marvin/memories";

/**
 * Creates `.marvin/memories/<name>` under the working dir; false when that name is taken.
 * Marvin's only write path into the folder, so a stricter check of its own folders can
 * replace the sandbox check here alone.
 */
export async function createMemoryFile(workingDir: string, name: string, content: string): Promise<boolean> {
  const path = await resolveInside(workingDir, `${MEMORIES_DIR}/${name}`, { write: true });
  return createTextFile(path, content);
}
