import { sleep } from "../shared/sleep.js";
import { ProviderError } from "./provider-error.js";
import type { ChatRequest, LLMProvider, ProviderEvent, ProviderFailure } from "./types.js";

export const MAX_RETRIES = 2;
/** Longest Retry-After we honour; a server asking for more fails fast instead of stalling. */
const MAX_RETRY_WAIT_SECONDS = 120;

/** One request's stream of events; the `done` response names the provider that answered. */
export type ChatStream = (request: ChatRequest) => AsyncIterable<ProviderEvent>;

/** The provider to ask instead of `failed`, resolved only when a failure calls for one; undefined when none may. */
export type Fallback = (failed: LLMProvider) => Promise<LLMProvider | undefined>;

export interface ResilienceOptions {
  notice: (text: string) => void;
  /** The Copilot fallback (./copilot-fallback.ts). */
  fallback?: Fallback;
  /** Seconds between retries of server/network errors (index = attempt). */
  transientBackoffSeconds?: readonly number[];
}

function waitSeconds(error: ProviderFailure, attempt: number, transientBackoff: readonly number[]): number | undefined {
  if (error.partialOutput || attempt >= MAX_RETRIES) return undefined;
  if (error.kind === "rate_limit") return error.retryAfterSeconds ?? (attempt + 1) * 30;
  if (error.kind === "server" || error.kind === "network") return transientBackoff[attempt] ?? 2;
  return undefined;
}

const FALLBACK_KINDS = new Set(["rate_limit", "auth", "network", "server", "timeout", "stream_cut"]);

/** How one attempt ended: the events were passed on, up to a failure that may still be retried. */
type Attempt = { failure: ProviderFailure; yieldedText: boolean } | { failure: undefined };

/**
 * Wraps a provider with the seeds' recovery rules: 429 → wait Retry-After (else 30 s,
 * 60 s), at most 2 retries; brief retries for 5xx and network errors; then the Copilot
 * fallback when it is actually usable. Nothing is retried once text has been streamed.
 * A round of tool calls the fallback asked for is continued by it: their results go back
 * to the provider that asked for them.
 */
export function resilientChat(provider: LLMProvider, options: ResilienceOptions): ChatStream {
  const backoff = options.transientBackoffSeconds ?? [1, 3];
  let continuing: LLMProvider | undefined;

  /** Passes on one provider's events; the `done` response names it. A failure is returned, not passed on. */
  async function* attempt(answering: LLMProvider, request: ChatRequest): AsyncGenerator<ProviderEvent, Attempt> {
    let yieldedText = false;
    for await (const event of answering.stream(request)) {
      if (event.type === "error") return { failure: event.error, yieldedText };
      if (event.type === "done") {
        continuing = event.response.finishReason === "tool_calls" && answering !== provider ? answering : undefined;
        yield { type: "done", response: { ...event.response, provider: answering.name } };
        return { failure: undefined };
      }
      if (event.type === "text_delta") yieldedText = true;
      yield event;
    }
    const ended = `The ${answering.name} stream ended without an answer or an error.`;
    return { failure: new ProviderError(ended, { provider: answering.name, kind: "stream_cut" }), yieldedText };
  }

  return async function* resilient(request) {
    const answering = continuing;
    continuing = undefined;
    if (answering && request.messages.at(-1)?.role === "tool") {
      const ended = yield* attempt(answering, request);
      if (ended.failure) yield { type: "error", error: ended.failure };
      return;
    }
    for (let count = 0; ; count++) {
      const ended = yield* attempt(provider, request);
      if (!ended.failure) return;
      const error = ended.failure;
      if (error.kind === "aborted" || ended.yieldedText) {
        yield { type: "error", error };
        return;
      }
      const wait = waitSeconds(error, count, backoff);
      if (wait !== undefined && wait <= MAX_RETRY_WAIT_SECONDS) {
        const what =
          error.kind === "rate_limit" ? `Rate limited by ${provider.name}.` : error.message.replace(/\.?$/, ".");
        options.notice(`⚠️ ${what} Waiting ${formatSeconds(wait)} before retry ${count + 1} of ${MAX_RETRIES}…`);
        try {
          await sleep(wait * 1000, request.signal);
        } catch {
          const cancelled = new ProviderError("Request cancelled.", { provider: provider.name, kind: "aborted" });
          yield { type: "error", error: cancelled };
          return;
        }
        continue;
      }
      if (provider.name !== "copilot" && !error.partialOutput && FALLBACK_KINDS.has(error.kind) && options.fallback) {
        const fallback = await options.fallback(provider);
        if (fallback) {
          options.notice(`⚠️ ${error.message} — falling back to Copilot.`);
          const fell = yield* attempt(fallback, request);
          if (fell.failure) yield { type: "error", error: fell.failure };
          return;
        }
      }
      yield { type: "error", error: wait === undefined ? error : tooLongToWait(error, wait) };
      return;
    }
  };
}

function tooLongToWait(error: ProviderFailure, wait: number): ProviderError {
  return new ProviderError(`${error.message} (the server asks to wait ${formatSeconds(wait)}; not waiting that long)`, {
    provider: error.provider,
    kind: error.kind,
    status: error.status,
    cause: error,
  });
}

function formatSeconds(seconds: number): string {
  return Number.isInteger(seconds) ? `${seconds}s` : `${seconds.toFixed(1)}s`;
}
