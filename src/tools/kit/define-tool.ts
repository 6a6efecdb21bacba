/**
 * How a tool is written. A domain lists its tools with `defineTool` and is registered once in
 * `index.ts`; the registry validates arguments, enforces the mode and the time limit, and turns
 * throws into errors the model can act on:
 *
 * ```ts
 * defineTool({
 *   name: "download_file",
 *   description: "Download a URL into ~/Downloads.",
 *   parameters: z.object({ url: z.string().describe("http(s) URL") }),
 *   effect: "write",
 *   handler: async ({ url }, context) => {
 *     context.onProgress({ message: "Downloading…", fraction: 0.5 });
 *     return { text: `Saved ${url}.`, details: { url } }; // or just the text
 *   },
 * });
 * ```
 *
 * Tests run it through the real registry with `createToolContext({ home })` (tool-context.ts),
 * or with every tool and a real session through `tests/support/tool-harness.ts`.
 */
import type { z } from "zod";
import type { ImageData } from "../../shared/image.js";
import type { JsonSchema } from "./json-schema.js";
import type { ToolServices } from "./tool-services.js";

/** The mode a tool runs in; decides which tools the model is offered. */
export interface ToolMode {
  codingMode: boolean;
  nonInteractive: boolean;
  readonly: boolean;
  /** Plan mode (`plan`): read-only until the user approves the plan; `readonly` is then true as well. */
  planning?: boolean;
}

/** How far a long call (a download, a clone) has come, for the person watching. */
export interface ToolProgress {
  /** One short line: "Downloaded 12 of 40 MB". */
  message: string;
  /** Share done, 0 to 1, when it is known. */
  fraction?: number;
  /** What the call printed since its previous report (run_command's output), for front ends to show as it streams. */
  output?: string;
}

/** Everything a tool handler may touch. Handlers never read process state directly. */
export interface ToolContext extends ToolServices {
  readonly signal: AbortSignal;
  readonly mode: ToolMode;
  /**
   * Reports progress of this call to the front ends (never to the model). Call it when something
   * worth showing changed, a few times a second at most; updates after the call ended are dropped.
   */
  onProgress(update: ToolProgress): void;
}

/**
 * What a handler returns: the text the model reads, or that text with `details` for front ends
 * and `--output jsonl` (structured data the model never sees; keep it JSON-serialisable), and
 * `images` the model sees with the text (only for a model that reads images: see ActiveProvider).
 */
export type ToolOutput<Details = unknown> = string | { text: string; details?: Details; images?: ImageData[] };

/** The result of one tool call, as the registry, the agent loop and `tool_end` events carry it. */
export interface ToolOutcome {
  /** What the model reads: the handler's text, or the error to act on. */
  result: string;
  isError: boolean;
  /** The handler's details, when it gave some. */
  details?: unknown;
  /** Images for the model, sent with the result; never in events or logs. */
  images?: ImageData[];
}

/**
 * What a call can change. Every tool declares it; there is no default, so a new tool cannot be
 * offered to a read-only agent by forgetting to say it writes.
 * - "read": looks only.
 * - "session": changes only this session's in-memory state (timers, working dir, ending the
 *   session), gone when the process ends; nothing on disk, in a repository or in the user's state.
 * - "write": changes files, a repository or the user's saved state, or runs commands and processes.
 */
type ToolEffect = "read" | "session" | "write";

export const TOOL_EFFECTS: readonly ToolEffect[] = ["read", "session", "write"];

interface ToolDef<Params extends z.ZodObject = z.ZodObject, Details = unknown> {
  name: string;
  description: string;
  parameters: Params;
  /**
   * The JSON Schema the model is shown, for a tool described by one (an MCP server's tool, a custom
   * tool); `parameters` still validates. Default: the JSON Schema of `parameters`.
   */
  inputSchema?: JsonSchema;
  /**
   * A read-only agent (MARVIN_READONLY=1) is neither offered nor allowed to run "write" tools. A
   * function decides per call, for a tool that only sometimes writes: it is offered, and its
   * writing calls are refused.
   */
  effect: ToolEffect | ((args: z.output<Params>) => ToolEffect);
  /** Returns what the model reads (and details). Throwing is allowed: the registry turns it into an error result. */
  handler: (args: z.output<Params>, context: ToolContext) => Promise<ToolOutput<Details>>;
  /**
   * What the tool does beyond the sandbox's reach, for a person who is asked first where approvals ask
   * ("installs a crontab line"): they may allow it for the rest of the conversation.
   */
  approval?: string;
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
  rawArguments?: (raw: string, context: ToolContext) => Promise<ToolOutput<Details> | undefined>;
}

/** A tool whose parameter type is erased, as the registry stores it. */
// biome-ignore lint/suspicious/noExplicitAny: the registry holds tools of every parameter type.
export type AnyToolDef = ToolDef<any>;

export function defineTool<Params extends z.ZodObject, Details = unknown>(def: ToolDef<Params, Details>): AnyToolDef {
  return def;
}

export { ToolError } from "../../shared/tool-error.js";
