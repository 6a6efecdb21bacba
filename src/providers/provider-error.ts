import { hideUrlCredentials } from "../shared/url-credentials.js";
import type { ProviderErrorKind, ProviderFailure, ProviderName } from "./types.js";

interface ProviderErrorDetails {
  provider: ProviderName;
  kind: ProviderErrorKind;
  status?: number;
  /** Seconds the server asked us to wait (Retry-After). */
  retryAfterSeconds?: number;
  /** True once any text of this response was yielded: retrying would repeat it. */
  partialOutput?: boolean;
  cause?: unknown;
}

/** Every provider failure, classified so the loop can decide to retry, fall back or stop. */
export class ProviderError extends Error implements ProviderFailure {
  override readonly name = "ProviderError";
  readonly provider: ProviderName;
  readonly kind: ProviderErrorKind;
  readonly status?: number;
  readonly retryAfterSeconds?: number;
  readonly partialOutput: boolean;

  /** `message` is shown as it is, but for the credentials of a URL in it (a base URL's `user:password@`). */
  constructor(message: string, details: ProviderErrorDetails) {
    super(hideUrlCredentials(message), { cause: details.cause });
    this.provider = details.provider;
    this.kind = details.kind;
    this.status = details.status;
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.partialOutput = details.partialOutput ?? false;
  }
}

export function isProviderError(error: unknown): error is ProviderError {
  return error instanceof ProviderError;
}
