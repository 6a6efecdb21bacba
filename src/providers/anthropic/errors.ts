import type { ProviderConfig } from "../descriptor.js";
import { httpFailure, overflowFailure } from "../failures.js";
import { ProviderError } from "../provider-error.js";
import type { ProviderErrorKind } from "../types.js";

/** The `error` object of Anthropic's error bodies and `error` events: `{type, message}`. */
interface AnthropicErrorObject {
  type: string;
  message?: string;
}

/** How Marvin treats each of Anthropic's error types (its "Errors" page). */
const KIND_OF_TYPE: Record<string, ProviderErrorKind> = {
  invalid_request_error: "bad_request",
  authentication_error: "auth",
  permission_error: "auth",
  not_found_error: "bad_request",
  request_too_large: "context_overflow",
  rate_limit_error: "rate_limit",
  api_error: "server",
  overloaded_error: "server",
  timeout_error: "server",
};

/** "prompt is too long: 208310 tokens > 200000 maximum", and its kin, as Anthropic words them. */
const TOO_LONG = /prompt is too long|too many (?:total )?tokens|exceeds? the (?:model's )?context window/i;

function isContextOverflow(error: AnthropicErrorObject): boolean {
  return error.type === "request_too_large" || TOO_LONG.test(error.message ?? "");
}

/** The error object of a body, or undefined when the body is not Anthropic's error JSON. */
function errorObjectOf(body: string): AnthropicErrorObject | undefined {
  try {
    const error = (JSON.parse(body) as { error?: { type?: unknown; message?: unknown } } | null)?.error;
    if (typeof error?.type !== "string") return undefined;
    return { type: error.type, message: typeof error.message === "string" ? error.message : undefined };
  } catch {
    return undefined;
  }
}

/** An HTTP error answer, classified; an oversized conversation is told apart from other bad requests. */
export async function httpErrorFailure(config: ProviderConfig, response: Response): Promise<ProviderError> {
  const body = await response.text().catch(() => "");
  const error = errorObjectOf(body);
  const message = (error?.message ?? (body.trim() || response.statusText)).slice(0, 500);
  if (response.status === 413 || (error && isContextOverflow(error))) {
    return overflowFailure(config, message, { status: response.status });
  }
  return httpFailure(config, { status: response.status, message, headers: response.headers }, false);
}

/** An `error` event in the stream (`overloaded_error` when Anthropic is busy…), classified by its type. */
export function streamErrorFailure(
  config: ProviderConfig,
  error: AnthropicErrorObject,
  partialOutput: boolean,
): ProviderError {
  const detail = error.message ? `${error.type}: ${error.message}` : error.type;
  if (isContextOverflow(error)) return overflowFailure(config, detail, { partialOutput });
  return new ProviderError(`${config.name} reported an error mid-stream: ${detail}`, {
    provider: config.name,
    kind: KIND_OF_TYPE[error.type] ?? "server",
    partialOutput,
  });
}
