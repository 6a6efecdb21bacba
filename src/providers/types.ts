import type { ImageData } from "../shared/image.js";
import type { ToolSchema } from "../shared/tool-schema.js";

/** Every provider Marvin knows; ./registry.ts lists a descriptor for each (checked when it compiles). */
export type ProviderName =
  | "copilot"
  | "anthropic"
  | "gemini"
  | "groq"
  | "mistral"
  | "openai"
  | "openrouter"
  | "codex"
  | "ollama"
  | "openai-compat";

/** The one message format every provider adapter speaks (OpenAI style, seed 000 §3.1). */
export type Message =
  | { role: "system"; content: string }
  /**
   * `context` is Marvin's note of what changed since the system message (the time, notifications…), sent in
   * front of the user's words; `content` is only what the user wrote. `images` go with the words, to models
   * that read images (see ./vision.ts).
   */
  | { role: "user"; content: string; context?: string; images?: ImageData[] }
  | {
      role: "assistant";
      content: string | null;
      tool_calls?: ToolCall[];
      /** What the provider needs back with this answer on the next request (see {@link ReplayData}). */
      replay?: ReplayData;
    }
  /** `images`: what the tool showed (read_file on an image); each adapter hands them over as its API allows. */
  | { role: "tool"; tool_call_id: string; content: string; images?: ImageData[] };

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
  /** `arguments` is the JSON text of the arguments, as the model wrote it and as the transcript keeps it. */
  function: { name: string; arguments: string };
  /**
   * The arguments already decoded, from a provider whose API hands them over as a value (Copilot's SDK): the
   * agent loop runs the tool with this value and never parses `arguments`.
   */
  input?: unknown;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  /** Of the prompt tokens, how many the provider served from its prompt cache (billed at a lower rate). */
  cachedTokens?: number;
  /** Of the prompt tokens, how many the provider wrote to its prompt cache (Anthropic bills them above input). */
  cacheWriteTokens?: number;
  /** What the provider says it billed for the call in USD (OpenRouter), used instead of Marvin's price table. */
  costUsd?: number;
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
  /**
   * The conversation. After an answer that ended with tool calls (`finishReason: "tool_calls"`), the next
   * request is the same conversation with that answer and the calls' results (`tool` messages) appended.
   */
  messages: readonly Message[];
  /** Empty means: ask for a text-only answer. */
  tools: readonly ToolSchema[];
  signal?: AbortSignal;
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

export type ProviderErrorKind =
  | "rate_limit"
  | "auth"
  | "bad_request"
  /** The conversation does not fit the model's context window: compact it or use a larger model. */
  | "context_overflow"
  | "server"
  | "network"
  | "timeout"
  | "stream_cut"
  | "aborted"
  | "unavailable";

/** A classified provider failure, so that the caller can decide to retry, fall back or stop (see ./provider-error.ts). */
export interface ProviderFailure extends Error {
  readonly provider: ProviderName;
  readonly kind: ProviderErrorKind;
  /** The HTTP status, when there was one. */
  readonly status?: number;
  /** Seconds the server asked us to wait (Retry-After). */
  readonly retryAfterSeconds?: number;
  /** True once any text of this response was yielded: retrying would repeat it. */
  readonly partialOutput: boolean;
}

/**
 * What a provider's stream yields, in order: deltas and tool-call starts as they arrive, then exactly one
 * `done` or `error`, after which it ends. A stream never throws; a failure is its `error` event (a
 * ProviderError, ./provider-error.ts, whose `partialOutput` says whether text was already yielded).
 *
 * The provider only reports the tool calls an answer asks for (in `done`, with finish reason `tool_calls`); it
 * never runs them. The agent loop runs them and asks again with their results appended.
 */
export type ProviderEvent =
  | { type: "text_delta"; text: string }
  | { type: "reasoning_delta"; text: string }
  | { type: "tool_call_start"; call: ToolCallStart }
  /** Something the person should know that is not part of the answer: a cut-off answer, a model's small window. */
  | { type: "notice"; text: string }
  | { type: "done"; response: LLMResponse }
  | { type: "error"; error: ProviderFailure };

/** A streaming chat backend: each request is one stream of {@link ProviderEvent}s. */
export interface LLMProvider {
  readonly name: ProviderName;
  readonly model: string;
  /** Runs on this machine or its network (see isLocalEndpoint): its conversations go nowhere else unasked. */
  readonly local: boolean;
  /** Whether the model reads images, for a provider that asks its server (Ollama); else see ./vision.ts. */
  readsImages?(): Promise<boolean>;
  stream(request: ChatRequest): AsyncIterable<ProviderEvent>;
  destroy(): Promise<void>;
}
