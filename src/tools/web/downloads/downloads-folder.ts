import { mkdir, realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative } from "node:path";
import { isInside, resolveInside } from "../../../workspace/sandbox.js";
import { type ToolContext, ToolError } from "../../kit/define-tool.js";

const LABEL = "Downloads folder";

/**
 * `~/Downloads`, created when missing, as its real path. It is the user's own folder: when it is a
 * symbolic link (to a larger disk, say) the files go where it leads.
 */
export async function downloadsFolder(context: Pick<ToolContext, "home">): Promise<string> {
  const folder = join(context.home, "Downloads");
  await mkdir(folder, { recursive: true });
  const real = await realpath(folder);
  if (!(await stat(real)).isDirectory()) {
    throw new ToolError(`${folder} exists but is not a folder, so nothing can be downloaded there. Move it away.`);
  }
  return real;
}

/** A folder inside ~/Downloads (relative to it, or absolute within it), created when missing; nothing leads out. */
export async function folderInsideDownloads(root: string, requested: string): Promise<string> {
  const trimmed = requested.trim();
  const relativePath = isAbsolute(trimmed) && isInside(root, trimmed) ? relative(root, trimmed) : trimmed;
  const folder = await resolveInside(root, relativePath, { write: true, label: LABEL });
  await mkdir(folder, { recursive: true });
  // A link planted inside between the check and mkdir would show here.
  return resolveInside(root, relative(root, folder) || ".", { write: true, label: LABEL });
}
