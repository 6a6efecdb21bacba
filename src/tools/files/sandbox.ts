import { ToolError, type ToolContext } from "../define-tool.js";

export { isInside, resolveInside, treeListing, type ResolveInsideOptions } from "../../workspace/sandbox.js";

/** Top-level names of the working dir that file tools never touch (tickets have their own tools). */
export const FILE_TOOLS_BLOCKED: readonly string[] = [".tickets"];

/** The working dir of coding tools, or a ToolError telling the model to set one. */
export function requireWorkingDir(context: Pick<ToolContext, "workingDir">): string {
  if (context.workingDir === null) {
    throw new ToolError("No working directory is set. Call set_working_dir with the project directory first, then use paths relative to it.");
  }
  return context.workingDir;
}
