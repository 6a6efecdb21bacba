import { isMissingError, readRegularFile } from "./regular-file.js";
import { resolveInside } from "./sandbox.js";

/**
 * The text of `relativePath` inside `root`, read through the sandbox: undefined when nothing is
 * there; a ToolError when the path (or a symlink on the way) leads outside `root`, or when it is
 * not a regular file (a FIFO is never opened). For every file Marvin reads on its own initiative.
 */
export async function readTextInside(root: string, relativePath: string, label?: string): Promise<string | undefined> {
  const real = await resolveInside(root, relativePath, { label });
  try {
    return (await readRegularFile(real, relativePath)).toString("utf8");
  } catch (error) {
    if (isMissingError(error)) return undefined;
    throw error;
  }
}
