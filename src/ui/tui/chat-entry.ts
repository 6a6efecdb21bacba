/** One tool call of a round, as the chat area shows it. */
export interface ToolCallView {
  callId: string;
  name: string;
  /** The name and key arguments, on one line: `run_command  npm test`. */
  label: string;
  /** The arguments as the model sent them (JSON). */
  arguments: string;
  /** The person's answer to the question this call asked before it ran (`Run `…`? [y/N] y`). */
  confirmation?: string;
  /** Clock time (ms) when the tool started. */
  startedAt: number;
  elapsedMs?: number;
  /** A call of a resumed conversation, shown again: how long it took is not known. */
  replayed?: boolean;
  /** The tool's latest progress line while it runs (a sub-agent's current tool, a download's size). */
  progress?: string;
  /** The latest output of a running command (run_command), as it streams. */
  output?: string;
  summary?: string;
  /** The whole result, shown when the finished call is expanded. */
  result?: string;
  /** An edit's unified diff, shown under the call. */
  diff?: string;
  isError?: boolean;
  /** The finished call shows its whole result (or diff) rather than one line. */
  expanded?: boolean;
}

interface EntryBase {
  id: number;
  /** Bumped on every change, so rendered lines can be cached per revision. */
  revision: number;
}

export type ChatEntry =
  | (EntryBase & { kind: "you"; text: string; time: string })
  /**
   * `continued`: a later part of the same answer (after a tool round); no header. `chunks`:
   * the text as it arrived, frame by frame (`text` is their concatenation).
   */
  | (EntryBase & {
      kind: "assistant";
      text: string;
      chunks: string[];
      time: string;
      streaming: boolean;
      continued: boolean;
      interrupted: boolean;
    })
  /** The model's reasoning before an answer, dim; `collapsed` to one line once the answer starts. */
  | (EntryBase & { kind: "reasoning"; text: string; collapsed: boolean })
  /**
   * `hang`: the column a two-column table's descriptions start at (`/help`); an indented row that wraps goes on
   * under its description.
   */
  | (EntryBase & { kind: "system"; text: string; level: "info" | "warning" | "error"; hang?: number })
  | (EntryBase & { kind: "tools"; names: string[]; calls: ToolCallView[] })
  /** A typed command echoed into the chat (`$ ls`, `> usage`). */
  | (EntryBase & { kind: "command"; text: string })
  /** Raw output of a shell command, as it arrives. */
  | (EntryBase & { kind: "output"; text: string });
