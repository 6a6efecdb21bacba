import type { AnyToolDef } from "./define-tool.js";

/**
 * A group of tools offered together once the model asks for it with load_tools. Each family is one folder of
 * src/tools/ with a family.ts; adding a tool domain is one folder and one entry in its family's list.
 */
export interface ToolFamily {
  name: string;
  /** What the family is for, in a few words (load_tools lists it with the family's tool names). */
  summary: string;
  tools: readonly AnyToolDef[];
}
