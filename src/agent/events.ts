import type { FinishReason } from "../providers/types.js";
import type { ToolOutcome, ToolProgress } from "../tools/kit/define-tool.js";

/**
 * Everything the agent loop reports. Every front end (TUI, plain, non-interactive text,
 * JSON lines) and every state listener (usage, audit log) is a subscriber of this union.
 * `--output jsonl` writes each event as it is: names and fields are a public contract.
 *
 * A tool call shows up three times, in this order:
 * - `tool_call_start`: the model began writing a call (its arguments are still streaming);
 * - `tool_calls`: the model's answer is complete; the names of the calls of this round, once, before any runs;
 * - `tool_start` … `tool_end`: one call runs, with its arguments decoded (`input`).
 */
export type AgentEvent =
  | { type: "agent_start"; maxRounds: number }
  | { type: "turn_start"; turn: number }
  | { type: "text_delta"; turn: number; text: string }
  /** Reasoning ("thinking") text as the model streams it, from models that show it; not part of the answer. */
  | { type: "reasoning_delta"; turn: number; text: string }
  /** The model has begun a tool call: its name is known, its arguments are still streaming. */
  | { type: "tool_call_start"; turn: number; callId: string; name: string }
  /** Names of the tools of one round, emitted once before any of them runs. */
  | { type: "tool_calls"; turn: number; names: string[] }
  /**
   * A tool call begins to run. `arguments` is the text the model sent; `input` the same decoded once, as the
   * tool, the hooks and the audit log see it (an object, or the raw text when it is not JSON).
   */
  | { type: "tool_start"; turn: number; callId: string; name: string; arguments: string; input: unknown }
  /** A running tool's report on how far it has come (downloads, clones); front ends may show it. */
  | ({ type: "tool_progress"; turn: number; callId: string; name: string } & ToolProgress)
  | ({
      type: "tool_end";
      turn: number;
      callId: string;
      name: string;
      arguments: string;
      input: unknown;
    } & ToolOutcome & {
        elapsedMs: number;
      })
  | {
      type: "usage";
      provider: string;
      model: string;
      inputTokens: number;
      outputTokens: number;
      /** Of the input tokens, how many the provider read from its prompt cache (0 when it does not say). */
      cachedTokens: number;
      cost: number;
      /** False when Marvin has no price for the model (cost is then 0). */
      priced: boolean;
      estimated: boolean;
    }
  | { type: "compaction"; phase: "start" | "end"; tokensBefore: number; tokensAfter?: number; backupPath?: string }
  /** Something the person should see that is not part of the answer (rate-limit waits, fallbacks). */
  | { type: "notice"; level: "info" | "warning"; text: string }
  | { type: "error"; message: string }
  | { type: "turn_end"; turn: number; finishReason: FinishReason }
  | { type: "agent_end"; reason: "done" | "error" | "aborted"; text: string; rounds: number };

/** Receives events synchronously, in order. Must not throw. */
export type AgentEventListener = (event: AgentEvent) => void;

/** A listener whose writes outlive the event (audit log, notifications): `flush` waits for them. */
export interface EventSink {
  listener: AgentEventListener;
  flush: () => Promise<void>;
}
