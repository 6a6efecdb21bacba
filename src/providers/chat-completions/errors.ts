import type { ProviderConfig } from "../descriptor.js";
import { httpFailure, overflowFailure } from "../failures.js";
import { ProviderError } from "../provider-error.js";
import type { ProviderErrorKind } from "../types.js";

/*
 * OpenAI's error shape, `{"error": {"message", "type", "param", "code"}}`, as OpenAI's APIs (Chat Completions and
 * Responses) and the servers that imitate them (Groq, OpenRouter, vLLM, llama.cpp, LM Studio…) send it in an error
 * body or mid-stream; some send a bare string or `message`/`detail` instead.
 */

interface ApiErrorObject {
  message?: string;
  type?: string;
  code?: string;
}

/** A sentence a service adds to one of its error answers (OpenRouter's 402: no credits), or undefined. */
export type ErrorAdvice = (status: number, error: ApiErrorObject | undefined) => string | undefined;

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/**
 * A router's error with what the model's own provider said: OpenRouter's "Provider returned error" carries it in
 * `metadata.raw`, and the provider's name in `metadata.provider_name`.
 */
function withUpstreamWords(message: string | undefined, metadata: unknown): string | undefined {
  const { raw, provider_name: provider } = (metadata ?? {}) as { raw?: unknown; provider_name?: unknown };
  const upstream = typeof raw === "string" ? raw : raw && typeof raw === "object" ? JSON.stringify(raw) : undefined;
  if (!upstream) return message;
  const who = typeof provider === "string" ? provider : "the upstream provider";
  return `${message ?? "provider error"} (${who} said: ${upstream.slice(0, 300)})`;
}

/** The error object of a parsed body or stream event, or undefined when it holds none. */
export function apiErrorOf(value: unknown): ApiErrorObject | undefined {
  if (!value || typeof value !== "object") return undefined;
  const { error, message, detail } = value as { error?: unknown; message?: unknown; detail?: unknown };
  if (typeof error === "string") return { message: error };
  if (error && typeof error === "object") {
    const { message, type, code, metadata } = error as Record<string, unknown>;
    return { message: withUpstreamWords(text(message), metadata), type: text(type), code: text(code) };
  }
  const said = text(message) ?? text(detail);
  return said === undefined ? undefined : { message: said };
}

/**
 * How each server says the conversation does not fit: OpenAI and Groq by the code `context_length_exceeded`
 * ("This model's maximum context length is…", Responses "Your input exceeds the context window…"), llama.cpp by
 * `exceed_context_size_error` ("request (9412 tokens) exceeds the available context size…"), vLLM in OpenAI's words,
 * LM Studio ("…greater than the context length").
 */
const TOO_LONG = new RegExp(
  [
    "maximum context length",
    "exceeds? the (?:available )?context (?:size|window|length)",
    "greater than the context length",
    "context[_ ]length[_ ]exceeded",
    "(?:prompt|input) is too long",
  ].join("|"),
  "i",
);

export function isContextOverflow(error: ApiErrorObject | undefined): boolean {
  if (!error) return false;
  if (error.code === "context_length_exceeded" || error.type === "exceed_context_size_error") return true;
  return TOO_LONG.test(error.message ?? "");
}

/** An HTTP error answer, classified; a conversation too long for the model is told apart from other bad requests. */
export async function httpErrorFailure(
  config: ProviderConfig,
  response: Response,
  advice?: ErrorAdvice,
): Promise<ProviderError> {
  const body = await response.text().catch(() => "");
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  const error = apiErrorOf(parsed);
  const said = (error?.message ?? (body.trim() || response.statusText)).slice(0, 500);
  if (isContextOverflow(error)) return overflowFailure(config, said, { status: response.status });
  const advised = advice?.(response.status, error);
  const message = advised ? `${said.replace(/\.?$/, ".")} ${advised.replace(/\.$/, "")}` : said;
  return httpFailure(config, { status: response.status, message, headers: response.headers }, false);
}

/** What an error reported inside a stream (no HTTP status) means, by its code. */
const KIND_OF_CODE: Record<string, ProviderErrorKind> = {
  rate_limit_exceeded: "rate_limit",
  insufficient_quota: "rate_limit",
  invalid_prompt: "bad_request",
  invalid_request_error: "bad_request",
};

/** An error object sent inside the stream, classified; a server error unless its code says otherwise. */
export function streamErrorFailure(
  config: ProviderConfig,
  error: ApiErrorObject,
  partialOutput: boolean,
): ProviderError {
  const said = error.message ?? error.code ?? "no details";
  if (isContextOverflow(error)) return overflowFailure(config, said, { partialOutput });
  return new ProviderError(`${config.name} reported an error mid-stream: ${said.slice(0, 500)}`, {
    provider: config.name,
    kind: KIND_OF_CODE[error.code ?? ""] ?? KIND_OF_CODE[error.type ?? ""] ?? "server",
    partialOutput,
  });
}
