import { ToolError } from "../define-tool.js";

export type ServiceErrorKind =
  /** The service answered with an HTTP error status (`status` says which). */
  | "status"
  /** HTTP 429 that could not be waited out. */
  | "rate-limited"
  | "timeout"
  | "cancelled"
  /** The service could not be reached (DNS, refused connection, reset, TLS). */
  | "network"
  /** The body was larger than the request's byte cap. */
  | "too-large"
  /** The body did not parse, or did not match the expected schema. */
  | "bad-answer"
  /** A URL the model chose points at a private or local address, or is not http(s). */
  | "refused"
  | "redirect"
  /** A MARVIN_*_URL setting is not a usable URL. */
  | "setting"
  /** The body could not be written to the requested file. */
  | "file";

export interface ServiceErrorDetails {
  /** The service's name, or the host of a URL the model gave. */
  service: string;
  kind: ServiceErrorKind;
  status?: number;
  /** The start of a non-2xx answer's body, for services whose error bodies carry a code to branch on. */
  body?: string;
  /** The message field of a non-2xx answer's body, when it has one. */
  excerpt?: string;
  cause?: unknown;
}

/**
 * The one error the HTTP client throws. Its message names the service and says what to do;
 * the tool registry hands it to the model verbatim. Tools may branch on `kind` and `status`
 * (e.g. turn a 404 into "no such article").
 */
export class ServiceError extends ToolError {
  readonly service: string;
  readonly kind: ServiceErrorKind;
  readonly status: number | undefined;
  readonly body: string | undefined;
  readonly excerpt: string | undefined;

  constructor(message: string, details: ServiceErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.service = details.service;
    this.kind = details.kind;
    this.status = details.status;
    this.body = details.body;
    this.excerpt = details.excerpt;
  }
}
