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

/**
 * What a call can change. Every tool declares it; there is no default, so a new tool cannot be
 * offered to a read-only agent by forgetting to say it writes.
 * - "read": looks only.
 * - "session": changes only this session's in-memory state (timers, working dir, ending the
 *   session), gone when the process ends; nothing on disk, in a repository or in the user's state.
 * - "write": changes files, a repository or the user's saved state, or runs commands and processes.
 */
export type ToolEffect = "read" | "session" | "write";

export const TOOL_EFFECTS: readonly ToolEffect[] = ["read", "session", "write"];

export interface ToolDef<Params extends z.ZodObject = z.ZodObject> {
  name: string;
  description: string;
  parameters: Params;
  /**
   * A read-only agent (MARVIN_READONLY=1) is neither offered nor allowed to run "write" tools. A
   * function decides per call, for a tool that only sometimes writes: it is offered, and its
   * writing calls are refused.
   */
  effect: ToolEffect | ((args: z.output<Params>) => ToolEffect);
  /** Returns the text the model reads. Throwing is allowed: the registry turns it into an error result. */
  handler: (args: z.output<Params>, context: ToolContext) => Promise<string>;
  /** Offered only in coding mode. */
  codingOnly?: boolean;
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
