import type { ToolSchema } from "../shared/tool-schema.js";
import type { ProviderError } from "./provider-error.js";
import type { ProviderName } from "./registry.js";

/** The one message format every provider adapter speaks (OpenAI style, seed 000 §3.1). */
export type Message =
  | { role: "system"; content: string }
  /**
   * `context` is Marvin's note of what changed since the system message (the time, notifications…), sent in
   * front of the user's words; `content` is only what the user wrote.
   */
  | { role: "user"; content: string; context?: string }
  | {
      role: "assistant";
      content: string | null;
      tool_calls?: ToolCall[];
      /** What the provider needs back with this answer on the next request (see {@link ReplayData}). */
      replay?: ReplayData;
    }
  | { role: "tool"; tool_call_id: string; content: string };

/**
 * Provider-specific parts of an answer that must be sent back unchanged with it on later requests: Anthropic
 * thinking blocks and their signatures, Gemini thought signatures, OpenAI Responses encrypted reasoning items.
 * Only the provider that wrote it reads it; any other ignores it.
 */
export interface ReplayData {
  provider: ProviderName;
  items: unknown[];
}

/** How hard a reasoning model should think (`MARVIN_THINKING`, `/thinking`); each adapter maps it to its API. */
export type ThinkingLevel = "off" | "low" | "medium" | "high";

export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** A provider's name, as listed in ./registry.ts. */
export type { ProviderName };

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  /** Of the prompt tokens, how many the provider served from its prompt cache (billed at a lower rate). */
  cachedTokens?: number;
  /** Of the prompt tokens, how many the provider wrote to its prompt cache (Anthropic bills them above input). */
  cacheWriteTokens?: number;
}

export type FinishReason = "stop" | "tool_calls" | "length" | "content_filter" | "other";

export interface LLMResponse {
  content: string;
  toolCalls: ToolCall[];
  /** Absent when the provider did not report usage in the stream. */
  usage?: TokenUsage;
  model: string;
  /** Which provider answered; set by the retry/fallback layer. */
  provider?: ProviderName;
  finishReason: FinishReason;
  /** Reasoning text some models stream separately (DeepSeek `reasoning_content`). */
  reasoning?: string;
  /** Kept with the assistant message and sent back on the next request (see {@link ReplayData}). */
  replay?: ReplayData;
}

/** A tool call the model has begun: its arguments may still be streaming. */
export interface ToolCallStart {
  /** The id the finished call will carry. */
  id: string;
  name: string;
  /** Position of the call among the response's tool calls. */
  index: number;
}

export interface ChatRequest {
  messages: readonly Message[];
  /** Empty means: ask for a text-only answer. */
  tools: readonly ToolSchema[];
  /** Receives text as it streams; must not throw. */
  onDelta: (text: string) => void;
  /** Receives reasoning ("thinking") text as it streams, from models that show it; must not throw. */
  onReasoningDelta?: (text: string) => void;
  /** Told once per tool call as soon as its name is known, while its arguments still stream; must not throw. */
  onToolCallStart?: (call: ToolCallStart) => void;
  /** Receives what the person should know about this answer that is not part of it (a cut-off, a small window). */
  onNotice?: (text: string) => void;
  signal?: AbortSignal;
  /**
   * For providers whose SDK runs the tool loop itself (Copilot): executes one batch of
   * calls with the agent loop's bookkeeping (events, limits) and returns results in order.
   */
  runTools?: (calls: ToolCall[]) => Promise<string[]>;
  /**
   * A stable id of the conversation. Providers whose API takes one (OpenAI's `prompt_cache_key`) send it, so
   * that the requests of a conversation reach the same prompt cache.
   */
  cacheKey?: string;
  /**
   * A one-off request outside the conversation (a summary): providers that keep the
   * conversation on their side (Copilot) must neither use nor change it.
   */
  standalone?: boolean;
  /** How hard to think; absent means the provider's own default. */
  thinking?: ThinkingLevel;
}

/**
 * What a provider's stream yields, in order: deltas and tool-call starts as they arrive, then exactly one
 * `done` or `error`, after which it ends. A stream never throws; a failure is its `error` event (a
 * {@link ProviderError} whose `partialOutput` says whether text was already yielded).
 */
export type ProviderEvent =
  | { type: "text_delta"; text: string }
  | { type: "reasoning_delta"; text: string }
  | { type: "tool_call_start"; call: ToolCallStart }
  /** Something the person should know that is not part of the answer: a cut-off answer, a model's small window. */
  | { type: "notice"; text: string }
  | { type: "done"; response: LLMResponse }
  | { type: "error"; error: ProviderError };

/**
 * A streaming chat backend. `chat` resolves with the whole response once the stream ends,
 * and rejects with a {@link ProviderError} on every failure (after any text already
 * passed to `onDelta`).
 */
export interface LLMProvider {
  readonly name: ProviderName;
  readonly model: string;
  /** Runs on this machine or its network (see isLocalEndpoint): its conversations go nowhere else unasked. */
  readonly local: boolean;
  chat(request: ChatRequest): Promise<LLMResponse>;
  destroy(): Promise<void>;
}
