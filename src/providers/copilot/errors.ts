import { errorMessage } from "../../shared/error-message.js";
import { ProviderError } from "../provider-error.js";
import type { ProviderErrorKind } from "../types.js";

const PICK_ANOTHER = "Or pick another provider with --provider or LLM_PROVIDER.";

const SIGN_IN =
  "Sign in with `gh auth login` (or `copilot login`), or set COPILOT_GITHUB_TOKEN, GH_TOKEN or GITHUB_TOKEN " +
  "to a GitHub token with Copilot access.";

const HOW_TO_AUTHENTICATE = `${SIGN_IN} ${PICK_ANOTHER}`;

function copilotError(message: string, kind: ProviderErrorKind, cause?: unknown, partialOutput = false): ProviderError {
  return new ProviderError(message, { provider: "copilot", kind, cause, partialOutput });
}

/** "180" for 180 000 ms, "0.5" for 500 ms. */
function seconds(milliseconds: number): string {
  return String(Number((milliseconds / 1000).toFixed(3)));
}

export function sdkMissingError(cause: unknown): ProviderError {
  return copilotError(
    `The Copilot SDK (@github/copilot-sdk) is not installed, so the copilot provider cannot run. ` +
      `Install it with \`npm install @github/copilot-sdk\`. ${PICK_ANOTHER}`,
    "unavailable",
    cause,
  );
}

export function notAuthenticatedError(statusMessage: string | undefined): ProviderError {
  const status = statusMessage ? ` (${statusMessage})` : "";
  return copilotError(
    `GitHub Copilot is not signed in${status}. ${SIGN_IN} ` +
      `If you are signed in, check that this machine can reach GitHub. ${PICK_ANOTHER}`,
    "auth",
  );
}

export function startupTimeoutError(step: string, timeoutMs: number): ProviderError {
  return copilotError(
    `The Copilot runtime did not ${step} within ${seconds(timeoutMs)}s. ${PICK_ANOTHER}`,
    "unavailable",
  );
}

/** Any failure while starting the runtime or creating the session, unless already classified. */
export function startupError(error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  const message = errorMessage(error);
  if (/OAuth token|not authenticated|HMAC key/i.test(message)) {
    return copilotError(`GitHub Copilot rejected the credentials: ${message}. ${HOW_TO_AUTHENTICATE}`, "auth", error);
  }
  return copilotError(`The Copilot runtime could not start: ${message}. ${PICK_ANOTHER}`, "unavailable", error);
}

export function turnTimeoutError(timeoutMs: number, partialOutput: boolean): ProviderError {
  return copilotError(
    `Response timed out after ${seconds(timeoutMs)}s. Rebuilding session.`,
    "timeout",
    undefined,
    partialOutput,
  );
}

export function abortedError(partialOutput: boolean): ProviderError {
  return copilotError("Request cancelled.", "aborted", undefined, partialOutput);
}

export function sendError(error: unknown, partialOutput: boolean): ProviderError {
  return copilotError(`Copilot did not accept the message: ${errorMessage(error)}`, "server", error, partialOutput);
}

interface SessionErrorData {
  errorType: string;
  message: string;
  statusCode?: number;
}

function sessionErrorKind(data: SessionErrorData): ProviderErrorKind {
  const type = data.errorType.toLowerCase();
  const status = data.statusCode;
  if (type === "authentication" || type === "authorization" || status === 401 || status === 403) return "auth";
  if (/OAuth token|not authenticated|HMAC key/i.test(data.message)) return "auth";
  if (type === "rate_limit" || type === "quota" || status === 429) return "rate_limit";
  if (type === "context_limit" || status === 400 || status === 413) return "bad_request";
  return "server";
}

/** Classifies a `session.error` event from the runtime. */
export function sessionErrorToProviderError(data: SessionErrorData, partialOutput: boolean): ProviderError {
  const kind = sessionErrorKind(data);
  const advice = kind === "auth" ? ` ${HOW_TO_AUTHENTICATE}` : "";
  return new ProviderError(`Copilot ${data.errorType} error: ${data.message}.${advice}`, {
    provider: "copilot",
    kind,
    status: data.statusCode,
    partialOutput,
  });
}

/** Rejects with `makeError()` when `promise` has not settled within `timeoutMs`. */
export async function withTimeout<T>(promise: Promise<T>, timeoutMs: number, makeError: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(makeError()), Math.max(0, timeoutMs));
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Rejects with an "aborted" ProviderError as soon as `signal` fires. */
export async function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) throw abortedError(false);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(abortedError(false));
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([promise, aborted]);
  } finally {
    if (onAbort) signal.removeEventListener("abort", onAbort);
  }
}
