/** An error whose message is already written for the model; thrown by tool handlers and the workspace sandbox. */
export class ToolError extends Error {
  override readonly name = "ToolError";
}
