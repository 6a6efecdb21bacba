import { retryAfterFromHeaders } from "../shared/retry-after.js";
import { hideUrlCredentials } from "../shared/url-credentials.js";
import type { ProviderConfig } from "./descriptor.js";
import { isProviderError, ProviderError } from "./provider-error.js";
import type { ProviderErrorKind } from "./types.js";

/*
 * The failures every HTTP adapter meets, worded once: which limit cancelled a request, a server
 * that cannot be reached, an HTTP error status. Each adapter adds only what its own API says.
 */

type FailureConfig = Pick<ProviderConfig, "name" | "model" | "baseUrl" | "keyHint" | "timeoutMs" | "idleTimeoutMs">;

/** Which of a request's two limits cancelled it (see ./request-deadline.ts). */
export type TimeLimit = "total" | "idle";

/** The server's URL as it may be shown (without its credentials), or the provider's name. */
function where(config: FailureConfig): string {
  return config.baseUrl ? hideUrlCredentials(config.baseUrl) : config.name;
}

function timeoutFailure(
  config: FailureConfig,
  limit: TimeLimit,
  partialOutput: boolean,
  cause?: unknown,
): ProviderError {
  const milliseconds = limit === "idle" ? config.idleTimeoutMs : config.timeoutMs;
  const what = limit === "idle" ? "sent nothing for" : "did not finish within";
  const seconds = Number((milliseconds / 1000).toFixed(1));
  return new ProviderError(`${config.name} ${what} ${seconds}s (${where(config)}); the request was cancelled.`, {
    provider: config.name,
    kind: "timeout",
    partialOutput,
    cause,
  });
}

function cancelledFailure(config: FailureConfig, partialOutput: boolean, cause?: unknown): ProviderError {
  return new ProviderError("Request cancelled.", { provider: config.name, kind: "aborted", partialOutput, cause });
}

/** The server could not be reached; `detail` is the socket's own words (ECONNREFUSED…), when known. */
function networkFailure(
  config: FailureConfig,
  detail: string | undefined,
  partialOutput: boolean,
  cause?: unknown,
): ProviderError {
  const suffix = detail ? `: ${detail}` : "";
  return new ProviderError(
    `Cannot reach ${config.name} at ${where(config)}${suffix}. Check the URL and your network.`,
    { provider: config.name, kind: "network", partialOutput, cause },
  );
}

/** An HTTP error status, `message` being what the server said about it. */
interface HttpErrorAnswer {
  status: number;
  message: string;
  headers?: Headers;
  /** A wait the body asks for (Google's RetryInfo); wins over the headers' Retry-After. */
  retryAfterSeconds?: number;
  /** What the body says beyond the status: an invalid key sent as 400, a prompt longer than the window. */
  kind?: ProviderErrorKind;
}

function kindOfStatus(status: number): ProviderErrorKind {
  if (status === 429) return "rate_limit";
  if (status === 401 || status === 403) return "auth";
  if (status >= 500) return "server";
  return "bad_request";
}

/** An HTTP error status, classified: 429 rate limit (with its Retry-After), 401/403 key, 404 model or URL, 5xx server. */
export function httpFailure(
  config: FailureConfig,
  answer: HttpErrorAnswer,
  partialOutput: boolean,
  cause?: unknown,
): ProviderError {
  const { status, message } = answer;
  const provider = config.name;
  const kind = answer.kind ?? kindOfStatus(status);
  const details = { provider, status, partialOutput, cause, kind };
  switch (kind) {
    case "rate_limit": {
      const retryAfterMs = retryAfterFromHeaders(answer.headers);
      const retryAfterSeconds =
        answer.retryAfterSeconds ?? (retryAfterMs === undefined ? undefined : retryAfterMs / 1000);
      return new ProviderError(`${provider} rate limit (HTTP ${status}): ${message}`, {
        ...details,
        retryAfterSeconds,
      });
    }
    case "auth": {
      const check = config.keyHint ? `Check ${config.keyHint}.` : "Check the provider's credentials.";
      return new ProviderError(`${provider} refused the API key (HTTP ${status}): ${message}. ${check}`, details);
    }
    case "context_overflow":
      return new ProviderError(
        `The conversation is too long for ${config.model} (${message}). Compact the history or start a new ` +
          "conversation.",
        details,
      );
    case "server":
      return new ProviderError(`${provider} server error (HTTP ${status}): ${message}`, details);
    default:
      if (status === 404) {
        return new ProviderError(
          `${provider} answered HTTP 404 for model '${config.model}' at ${where(config)}: ${message}. Check the ` +
            "model name and URL.",
          details,
        );
      }
      return new ProviderError(`${provider} rejected the request (HTTP ${status}): ${message}`, details);
  }
}

/** The socket's own words for a failed connection (ECONNREFUSED, ENOTFOUND…): fetch hides them in `cause`. */
function connectionDetail(error: unknown): string | undefined {
  const cause = error instanceof Error ? error.cause : undefined;
  return cause instanceof Error ? cause.message : undefined;
}

/**
 * Why a streamed request of a fetch-based adapter ended early: one of its limits, the person's cancel, a
 * ProviderError the adapter raised itself, a server out of reach (nothing `answered` yet), or a connection
 * closed mid-answer.
 */
export function interruptedFailure(
  config: FailureConfig,
  error: unknown,
  deadline: { timedOut: TimeLimit | undefined; signal: AbortSignal },
  answered: boolean,
  partialOutput: boolean,
): ProviderError {
  if (deadline.timedOut) return timeoutFailure(config, deadline.timedOut, partialOutput, error);
  if (deadline.signal.aborted) return cancelledFailure(config, partialOutput, error);
  if (isProviderError(error)) return error;
  if (!answered) return networkFailure(config, connectionDetail(error), partialOutput, error);
  return cutFailure(config, partialOutput, error);
}

/** The answer stopped before it was complete: the body ended or the connection dropped. */
export function cutFailure(config: FailureConfig, partialOutput: boolean, cause?: unknown): ProviderError {
  return new ProviderError(
    `The response stream from ${config.name} ended before the model finished (the connection closed mid-answer).`,
    { provider: config.name, kind: "stream_cut", partialOutput, cause },
  );
}

/** Stream data that is not what the API sends; `what` completes "<provider> sent …" with the problem. */
export function garbledFailure(config: FailureConfig, what: string, partialOutput: boolean): ProviderError {
  return new ProviderError(`${config.name} sent ${what}`, {
    provider: config.name,
    kind: "stream_cut",
    partialOutput,
  });
}

/** The conversation does not fit the model's context window; `detail` is the API's own words. */
export function overflowFailure(
  config: FailureConfig,
  detail: string,
  details: { status?: number; partialOutput?: boolean },
): ProviderError {
  return new ProviderError(
    `The conversation is too long for ${config.model} (${detail}). Compact the history or start a new ` +
      "conversation.",
    { provider: config.name, kind: "context_overflow", ...details },
  );
}

/** A 200 answer that is not the event stream asked for; `api` says which API was expected and its URL setting. */
export function notStreamedFailure(config: FailureConfig, response: Response, api: string): ProviderError {
  const type = response.headers.get("content-type") || "no content type";
  return new ProviderError(
    `${config.name} answered with '${type}' instead of an event stream; is ${where(config)} ${api}?`,
    { provider: config.name, kind: "bad_request", status: response.status },
  );
}
