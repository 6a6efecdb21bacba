/**
 * What hooks hear (seed 003 "Hook System"). Module hooks receive these objects; command hooks
 * receive them as JSON on stdin, with `cwd` added.
 */
export type HookEvent =
  | { type: "app.start" }
  | { type: "session.start" }
  | { type: "session.resume" }
  | { type: "session.clear" }
  | { type: "agent.start"; prompt: string }
  | { type: "agent.end"; reason: "done" | "error" | "aborted"; text: string }
  | { type: "turn.start"; turn: number }
  | { type: "turn.end"; turn: number }
  | { type: "tool.execute.before"; tool: string; callId: string; arguments: unknown }
  | {
      type: "tool.execute.after";
      tool: string;
      callId: string;
      arguments: unknown;
      result: string;
      isError: boolean;
      /** The tool's details, when it gave some (a writer's `{ diff }`). */
      details?: unknown;
    };

export type HookEventType = HookEvent["type"];

export const HOOK_EVENT_TYPES: readonly HookEventType[] = [
  "app.start",
  "session.start",
  "session.resume",
  "session.clear",
  "agent.start",
  "agent.end",
  "turn.start",
  "turn.end",
  "tool.execute.before",
  "tool.execute.after",
];

/**
 * What a handler may answer: for `tool.execute.before`, `{ block: true, reason }` stops the call
 * (the model reads the reason); for `tool.execute.after`, `{ result, isError }` replaces the result.
 * Anything else is ignored.
 */
export interface HookAnswer {
  block?: boolean;
  reason?: string;
  result?: string;
  isError?: boolean;
}

/** One subscriber: a module hook's handler or a command hook. Runs with a time limit; may throw. */
export interface HookHandler {
  /** Shown when it fails: "hook git-guard.mjs", "command hook `./check.sh`". */
  label: string;
  /** Tool-name pattern for tool events; undefined = every tool. */
  matcher?: RegExp;
  timeoutMs: number;
  run(event: HookEvent): Promise<HookAnswer | undefined> | HookAnswer | undefined;
}
