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
