import type { ProviderConfig } from "./config.js";
import { ProviderError, type ProviderErrorKind } from "./provider-error.js";

/** What went wrong with one HTTP answer of a provider, as its adapter read it. */
interface HttpFailure {
  status: number;
  /** The server's own words, already taken out of its error body. */
  message: string;
  /** Seconds the server asked to wait before a retry. */
  retryAfterSeconds?: number;
  /** True once text of this response was streamed. */
  partialOutput: boolean;
  /** Overrides the kind the status alone would give (an invalid key sent as 400, a too-long prompt). */
  kind?: ProviderErrorKind;
  cause?: unknown;
}

/** Where the provider was asked, for messages: its base URL, else its name. */
function whereOf(config: ProviderConfig): string {
  return config.baseUrl ?? config.name;
}

function checkKey(config: ProviderConfig): string {
  return config.keyHint ? `Check ${config.keyHint}.` : "Check the provider's credentials.";
}

/** An HTTP error status of any provider, classified for retries and fallbacks, with a message saying what to do. */
export function httpFailure(config: ProviderConfig, failure: HttpFailure): ProviderError {
  const { status, message, partialOutput, cause } = failure;
  const provider = config.name;
  const details = { provider, status, partialOutput, cause };
  const kind = failure.kind ?? kindOfStatus(status);
  switch (kind) {
    case "rate_limit":
      return new ProviderError(`${provider} rate limit (HTTP ${status}): ${message}`, {
        ...details,
        kind,
        retryAfterSeconds: failure.retryAfterSeconds,
      });
    case "auth":
      return new ProviderError(`${provider} refused the API key (HTTP ${status}): ${message}. ${checkKey(config)}`, {
        ...details,
        kind,
      });
    case "server":
      return new ProviderError(`${provider} server error (HTTP ${status}): ${message}`, { ...details, kind });
    case "context_overflow":
      return new ProviderError(
        `The conversation is too long for ${provider} model '${config.model}' (HTTP ${status}): ${message}`,
        { ...details, kind },
      );
    default:
      if (status === 404) {
        return new ProviderError(
          `${provider} answered HTTP 404 for model '${config.model}' at ${whereOf(config)}: ${message}. Check the ` +
            `model name and URL.`,
          { ...details, kind },
        );
      }
      return new ProviderError(`${provider} rejected the request (HTTP ${status}): ${message}`, { ...details, kind });
  }
}

function kindOfStatus(status: number): ProviderErrorKind {
  if (status === 429) return "rate_limit";
  if (status === 401 || status === 403) return "auth";
  if (status >= 500) return "server";
  return "bad_request";
}

/** A request cancelled by one of Marvin's own time limits. */
export function timeoutFailure(
  config: ProviderConfig,
  limit: "total" | "idle",
  partialOutput: boolean,
  cause?: unknown,
): ProviderError {
  const milliseconds = limit === "idle" ? config.idleTimeoutMs : config.timeoutMs;
  const what = limit === "idle" ? "sent nothing for" : "did not finish within";
  return new ProviderError(
    `${config.name} ${what} ${Number((milliseconds / 1000).toFixed(1))}s (${whereOf(config)}); the request was ` +
      `cancelled.`,
    { provider: config.name, kind: "timeout", partialOutput, cause },
  );
}

/** A request the person cancelled. */
export function cancelledFailure(config: ProviderConfig, partialOutput: boolean, cause?: unknown): ProviderError {
  return new ProviderError("Request cancelled.", { provider: config.name, kind: "aborted", partialOutput, cause });
}

/** A server that could not be reached at all; `detail` is the system's reason (ECONNREFUSED…). */
export function unreachableFailure(
  config: ProviderConfig,
  detail: string | undefined,
  partialOutput: boolean,
  cause?: unknown,
): ProviderError {
  return new ProviderError(
    `Cannot reach ${config.name} at ${whereOf(config)}${detail ? `: ${detail}` : ""}. Check the URL and your network.`,
    { provider: config.name, kind: "network", partialOutput, cause },
  );
}

/** A stream that ended before the model finished. */
export function cutFailure(config: ProviderConfig, partialOutput: boolean): ProviderError {
  return new ProviderError(
    `The response stream from ${config.name} ended before the model finished (connection closed mid-answer).`,
    { provider: config.name, kind: "stream_cut", partialOutput },
  );
}
