import type { ChatRequest, ThinkingLevel } from "../types.js";
import type { ErrorAdvice } from "./errors.js";
import type { CompletionsMessage } from "./wire-messages.js";

/**
 * What one OpenAI-compatible service does its own way (Mistral's tool-call ids, OpenRouter's headers and
 * `reasoning` parameter); the plain protocol wherever a part is absent.
 */
export interface CompletionsDialect {
  /** Headers sent with every request besides the API key. */
  readonly headers?: Record<string, string>;
  /** False for a service that refuses `stream_options` (it reports usage unasked). */
  readonly streamOptions?: boolean;
  /** The body's fields that ask for a thinking level, instead of `reasoning_effort`; undefined sends none. */
  reasoning?(level: ThinkingLevel): Record<string, unknown> | undefined;
  /** Fields the service takes besides the protocol's. */
  extraFields?(request: ChatRequest): Record<string, unknown>;
  /** The messages as the service takes them. */
  messages?(messages: CompletionsMessage[]): CompletionsMessage[];
  /** What to add to one of the service's HTTP error answers. */
  readonly errorAdvice?: ErrorAdvice;
}
