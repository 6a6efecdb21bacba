import { realpath, stat } from "node:fs/promises";
import { isAbsolute, relative } from "node:path";
import { isInside, resolveInside } from "../../workspace/sandbox.js";
import { type ToolContext, ToolError } from "./define-tool.js";

/** The working dir of coding tools, or a ToolError telling the model to set one. */
export function requireWorkingDir(context: Pick<ToolContext, "workingDir">): string {
  if (context.workingDir === null) {
    throw new ToolError(
      "No working directory is set. Call set_working_dir with the project directory first, then use paths " +
        "relative to it.",
    );
  }
  return context.workingDir;
}

/** The working dir as a real path (symlinks resolved), or a ToolError telling the model to set one. */
export async function realWorkingDir(context: Pick<ToolContext, "workingDir">): Promise<string> {
  const dir = requireWorkingDir(context);
  return realpath(dir).catch(() => dir);
}

/** A directory the model named: relative to the (real) working dir `root`, or an absolute path inside it. */
export async function directoryInside(root: string, requested: string): Promise<string> {
  let path = requested.trim() || ".";
  if (isAbsolute(path)) {
    const real = await realpath(path).catch(() => path);
    if (isInside(root, real)) path = relative(root, real) || ".";
  }
  const directory = await resolveInside(root, path);
  const info = await stat(directory).catch(() => undefined);
  if (!info?.isDirectory()) throw new ToolError(`${requested} is not a directory inside the working dir (${root}).`);
  return directory;
}
