import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { errorMessage } from "../../shared/error-message.js";
import type { ProviderConfig } from "../descriptor.js";
import { cancelledFailure, httpFailure, networkFailure, type TimeLimit, timeoutFailure } from "../failures.js";
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
  why: { timedOut?: TimeLimit; partialOutput: boolean },
): ProviderError {
  const provider = config.name;
  const where = config.baseUrl ?? provider;
  const partialOutput = why.partialOutput;
  if (why.timedOut) return timeoutFailure(config, why.timedOut, partialOutput, error);
  if (error instanceof ProviderError) return error;
  if (error instanceof APIUserAbortError) return cancelledFailure(config, partialOutput, error);
  if (error instanceof APIConnectionTimeoutError) {
    return new ProviderError(`${provider} did not answer in time (${where}).`, {
      provider,
      kind: "timeout",
      partialOutput,
      cause: error,
    });
  }
  if (error instanceof APIConnectionError) {
    const detail = error.cause instanceof Error ? error.cause.message : undefined;
    return networkFailure(config, detail, partialOutput, error);
  }
  if (error instanceof APIError && error.status !== undefined) {
    const answer = { status: error.status, message: serverMessage(error), headers: error.headers };
    return httpFailure(config, answer, partialOutput, error);
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
