import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { errorMessage } from "../../shared/error-message.js";
import { retryAfterFromHeaders } from "../../shared/retry-after.js";
import type { ProviderConfig } from "../descriptor.js";
import { ProviderError } from "../provider-error.js";

function serverMessage(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  const text = typeof body?.message === "string" ? body.message : error.message;
  return text.replace(/^\d{3}\s+/, "").slice(0, 500);
}

/** Turns whatever the OpenAI SDK threw into a classified, actionable ProviderError. */
export function toProviderError(
  error: unknown,
  config: ProviderConfig,
  why: { timedOut?: "total" | "idle"; partialOutput: boolean },
): ProviderError {
  const provider = config.name;
  const where = config.baseUrl ?? provider;
  const partialOutput = why.partialOutput;
  if (why.timedOut) {
    const limit = why.timedOut === "idle" ? config.idleTimeoutMs : config.timeoutMs;
    const what = why.timedOut === "idle" ? "sent nothing for" : "did not finish within";
    return new ProviderError(
      `${provider} ${what} ${Number((limit / 1000).toFixed(1))}s (${where}); the request was cancelled.`,
      {
        provider,
        kind: "timeout",
        partialOutput,
        cause: error,
      },
    );
  }
  if (error instanceof ProviderError) return error;
  if (error instanceof APIUserAbortError) {
    return new ProviderError("Request cancelled.", { provider, kind: "aborted", partialOutput, cause: error });
  }
  if (error instanceof APIConnectionTimeoutError) {
    return new ProviderError(`${provider} did not answer in time (${where}).`, {
      provider,
      kind: "timeout",
      partialOutput,
      cause: error,
    });
  }
  if (error instanceof APIConnectionError) {
    const detail = error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return new ProviderError(`Cannot reach ${provider} at ${where}${detail}. Check the URL and your network.`, {
      provider,
      kind: "network",
      partialOutput,
      cause: error,
    });
  }
  if (error instanceof APIError && error.status !== undefined) {
    const status = error.status;
    const message = serverMessage(error);
    if (status === 429) {
      const retryAfterMs = retryAfterFromHeaders(error.headers);
      const retryAfterSeconds = retryAfterMs === undefined ? undefined : retryAfterMs / 1000;
      return new ProviderError(`${provider} rate limit (HTTP 429): ${message}`, {
        provider,
        kind: "rate_limit",
        status,
        retryAfterSeconds,
        partialOutput,
        cause: error,
      });
    }
    if (status === 401 || status === 403) {
      const check = config.keyHint ? `Check ${config.keyHint}.` : "Check the provider's credentials.";
      return new ProviderError(`${provider} refused the API key (HTTP ${status}): ${message}. ${check}`, {
        provider,
        kind: "auth",
        status,
        partialOutput,
        cause: error,
      });
    }
    if (status === 404) {
      return new ProviderError(
        `${provider} answered HTTP 404 for model '${config.model}' at ${where}: ${message}. Check the model ` +
          `name and URL.`,
        {
          provider,
          kind: "bad_request",
          status,
          partialOutput,
          cause: error,
        },
      );
    }
    if (status >= 500) {
      return new ProviderError(`${provider} server error (HTTP ${status}): ${message}`, {
        provider,
        kind: "server",
        status,
        partialOutput,
        cause: error,
      });
    }
    return new ProviderError(`${provider} rejected the request (HTTP ${status}): ${message}`, {
      provider,
      kind: "bad_request",
      status,
      partialOutput,
      cause: error,
    });
  }
  if (error instanceof APIError) {
    // An error object sent inside the stream (no HTTP status).
    return new ProviderError(`${provider} reported an error mid-stream: ${serverMessage(error)}`, {
      provider,
      kind: "server",
      partialOutput,
      cause: error,
    });
  }
  const text = errorMessage(error);
  if (error instanceof SyntaxError) {
    return new ProviderError(
      `${provider} sent stream data that is not valid JSON (${text}); is ${where} an OpenAI-compatible endpoint?`,
      {
        provider,
        kind: "stream_cut",
        partialOutput,
        cause: error,
      },
    );
  }
  return new ProviderError(`${provider} stream failed: ${text}`, {
    provider,
    kind: "stream_cut",
    partialOutput,
    cause: error,
  });
}
