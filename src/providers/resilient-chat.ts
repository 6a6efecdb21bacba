import { sleep } from "../shared/sleep.js";
import { ProviderError } from "./provider-error.js";
import type { ChatRequest, LLMProvider, LLMResponse } from "./types.js";

export const MAX_RETRIES = 2;
/** Longest Retry-After we honour; a server asking for more fails fast instead of stalling. */
const MAX_RETRY_WAIT_SECONDS = 120;

export type ChatFunction = (request: ChatRequest) => Promise<LLMResponse>;

/** The provider to ask instead of `failed`, resolved only when a failure calls for one; undefined when none may. */
export type Fallback = (failed: LLMProvider) => Promise<LLMProvider | undefined>;

export interface ResilienceOptions {
  notice: (text: string) => void;
  /** The Copilot fallback (./copilot-fallback.ts). */
  fallback?: Fallback;
  /** Seconds between retries of server/network errors (index = attempt). */
  transientBackoffSeconds?: readonly number[];
}

function waitSeconds(error: ProviderError, attempt: number, transientBackoff: readonly number[]): number | undefined {
  if (error.partialOutput || attempt >= MAX_RETRIES) return undefined;
  if (error.kind === "rate_limit") return error.retryAfterSeconds ?? (attempt + 1) * 30;
  if (error.kind === "server" || error.kind === "network") return transientBackoff[attempt] ?? 2;
  return undefined;
}

const FALLBACK_KINDS = new Set(["rate_limit", "auth", "network", "server", "timeout", "stream_cut"]);

/**
 * Wraps a provider with the seeds' recovery rules: 429 → wait Retry-After (else 30 s,
 * 60 s), at most 2 retries; brief retries for 5xx and network errors; then the Copilot
 * fallback when it is actually usable. Nothing is retried once text has been streamed.
 */
export function resilientChat(provider: LLMProvider, options: ResilienceOptions): ChatFunction {
  const backoff = options.transientBackoffSeconds ?? [1, 3];
  return async (request) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return { ...(await provider.chat(request)), provider: provider.name };
      } catch (error) {
        if (!(error instanceof ProviderError) || error.kind === "aborted") throw error;
        const wait = waitSeconds(error, attempt, backoff);
        if (wait !== undefined && wait <= MAX_RETRY_WAIT_SECONDS) {
          const what =
            error.kind === "rate_limit" ? `Rate limited by ${provider.name}.` : error.message.replace(/\.?$/, ".");
          options.notice(`⚠️ ${what} Waiting ${formatSeconds(wait)} before retry ${attempt + 1} of ${MAX_RETRIES}…`);
          await sleep(wait * 1000, request.signal);
          continue;
        }
        if (provider.name !== "copilot" && !error.partialOutput && FALLBACK_KINDS.has(error.kind) && options.fallback) {
          const fallback = await options.fallback(provider);
          if (fallback) {
            options.notice(`⚠️ ${error.message} — falling back to Copilot.`);
            return { ...(await fallback.chat(request)), provider: fallback.name };
          }
        }
        if (wait !== undefined) {
          throw new ProviderError(
            `${error.message} (the server asks to wait ${formatSeconds(wait)}; not waiting that long)`,
            {
              provider: error.provider,
              kind: error.kind,
              status: error.status,
              cause: error,
            },
          );
        }
        throw error;
      }
    }
  };
}

function formatSeconds(seconds: number): string {
  return Number.isInteger(seconds) ? `${seconds}s` : `${seconds.toFixed(1)}s`;
}
