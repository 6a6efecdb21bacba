import type { z } from "zod";
import type { ToolServices } from "./tool-services.js";

/** The mode a tool runs in; decides which tools the model is offered. */
export interface ToolMode {
  codingMode: boolean;
  nonInteractive: boolean;
  readonly: boolean;
}

/** Everything a tool handler may touch. Handlers never read process state directly. */
export interface ToolContext extends ToolServices {
  readonly signal: AbortSignal;
  readonly mode: ToolMode;
}

export interface ToolDef<Params extends z.ZodObject = z.ZodObject> {
  name: string;
  description: string;
  parameters: Params;
  /** Returns the text the model reads. Throwing is allowed: the registry turns it into an error result. */
  handler: (args: z.output<Params>, context: ToolContext) => Promise<string>;
  /** Offered only in coding mode. */
  codingOnly?: boolean;
  /** Changes files, repositories or runs commands: stripped when MARVIN_READONLY=1. */
  writeOp?: boolean;
  /** Never offered to non-interactive runs. */
  interactiveOnly?: boolean;
  /** Time limit for one call; a function when it depends on the arguments. Default 60 s. */
  timeoutMs?: number | ((args: z.output<Params>) => number);
  /**
   * Called when the model sends a raw, non-JSON string as the arguments (e.g. a Codex
   * `*** Begin Patch` block). Returning undefined falls back to the usual format error.
   */
  rawArguments?: (raw: string, context: ToolContext) => Promise<string | undefined>;
}

/** A tool whose parameter type is erased, as the registry stores it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyToolDef = ToolDef<any>;

export function defineTool<Params extends z.ZodObject>(def: ToolDef<Params>): AnyToolDef {
  return def;
}

export { ToolError } from "../shared/tool-error.js";
