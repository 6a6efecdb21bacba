import type { FinishReason } from "../providers/types.js";
import type { ToolOutcome, ToolProgress } from "../tools/kit/define-tool.js";

/**
 * Everything the agent loop reports. Every front end (TUI, plain, non-interactive text,
 * JSON lines) and every state listener (usage, audit log) is a subscriber of this union.
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
  | { type: "tool_start"; turn: number; callId: string; name: string; arguments: string }
  /** A running tool's report on how far it has come (downloads, clones); front ends may show it. */
  | ({ type: "tool_progress"; turn: number; callId: string; name: string } & ToolProgress)
  | ({ type: "tool_end"; turn: number; callId: string; name: string; arguments: string } & ToolOutcome & {
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
