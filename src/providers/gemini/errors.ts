import { z } from "zod";
import type { ProviderConfig } from "../descriptor.js";
import { httpFailure } from "../failures.js";
import type { ProviderError } from "../provider-error.js";
import type { ProviderErrorKind } from "../types.js";

/** Google's error body: `{ error: { code, message, status, details: [{ "@type", … }] } }`. */
const errorBody = z.looseObject({
  error: z.looseObject({
    code: z.number().optional(),
    message: z.string().optional(),
    status: z.string().optional(),
    details: z.array(z.looseObject({ "@type": z.string().optional() })).optional(),
  }),
});

type GeminiErrorBody = z.infer<typeof errorBody>["error"];

export function parseErrorBody(value: unknown): GeminiErrorBody | undefined {
  const parsed = errorBody.safeParse(value);
  return parsed.success ? parsed.data.error : undefined;
}

/** Seconds of a `google.rpc.RetryInfo` detail's `retryDelay` ("37s", "1.5s"). */
function retryDelaySeconds(error: GeminiErrorBody): number | undefined {
  for (const detail of error.details ?? []) {
    if (!detail["@type"]?.endsWith("google.rpc.RetryInfo")) continue;
    const match = /^(\d+(?:\.\d+)?)s$/.exec(String(detail.retryDelay ?? ""));
    if (match) return Number(match[1]);
  }
  return undefined;
}

/** A `google.rpc.ErrorInfo` reason (API_KEY_INVALID…). */
function errorReason(error: GeminiErrorBody): string | undefined {
  const info = error.details?.find((detail) => detail["@type"]?.endsWith("google.rpc.ErrorInfo"));
  return typeof info?.reason === "string" ? info.reason : undefined;
}

/** What the status alone would not tell: an invalid key sent as 400, a prompt longer than the model's window. */
function specialKind(error: GeminiErrorBody): ProviderErrorKind | undefined {
  if (errorReason(error) === "API_KEY_INVALID") return "auth";
  if (/input token count .* exceeds the maximum/i.test(error.message ?? "")) return "context_overflow";
  return undefined;
}

/** An HTTP error answer of the Gemini API, from its status, headers and body text. */
export function geminiHttpError(
  config: ProviderConfig,
  status: number,
  headers: Headers,
  bodyText: string,
  partialOutput: boolean,
): ProviderError {
  let body: GeminiErrorBody | undefined;
  try {
    body = parseErrorBody(JSON.parse(bodyText));
  } catch {
    body = undefined;
  }
  const message = body?.message
    ? `${body.message}${body.status ? ` (${body.status})` : ""}`
    : bodyText.trim().slice(0, 300) || "no details";
  const answer = {
    status,
    message: message.slice(0, 500),
    headers,
    retryAfterSeconds: body && retryDelaySeconds(body),
    kind: body && specialKind(body),
  };
  return httpFailure(config, answer, partialOutput);
}
