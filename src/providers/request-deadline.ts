import type { ProviderConfig } from "./config.js";
import { cancelledFailure, timeoutFailure, unreachableFailure } from "./http-failure.js";
import { isProviderError, ProviderError } from "./provider-error.js";

type Limits = Pick<ProviderConfig, "timeoutMs" | "idleTimeoutMs">;

/**
 * Marvin's two limits on one provider request (the whole request, and the longest silence) and the person's
 * cancel, as one AbortSignal. `touch` whenever data arrives; `dispose` when the request is over.
 */
export class RequestDeadline {
  private readonly controller = new AbortController();
  private readonly totalTimer: NodeJS.Timeout;
  private idleTimer: NodeJS.Timeout;
  private readonly onOuterAbort = () => this.controller.abort();
  /** Which limit cancelled the request, if one did. */
  timedOut: "total" | "idle" | undefined;

  constructor(
    private readonly limits: Limits,
    private readonly outer?: AbortSignal,
  ) {
    outer?.addEventListener("abort", this.onOuterAbort, { once: true });
    if (outer?.aborted) this.controller.abort();
    this.totalTimer = setTimeout(() => this.expire("total"), limits.timeoutMs);
    this.idleTimer = setTimeout(() => this.expire("idle"), limits.idleTimeoutMs);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Data arrived: the silence limit starts again. */
  touch(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.expire("idle"), this.limits.idleTimeoutMs);
  }

  dispose(): void {
    clearTimeout(this.totalTimer);
    clearTimeout(this.idleTimer);
    this.outer?.removeEventListener("abort", this.onOuterAbort);
  }

  private expire(limit: "total" | "idle"): void {
    this.timedOut ??= limit;
    this.controller.abort();
  }
}

/** The system's reason a fetch could not connect ("connect ECONNREFUSED 127.0.0.1:9"), when it gave one. */
function connectionDetail(error: unknown): string | undefined {
  const cause = error instanceof Error ? error.cause : undefined;
  return cause instanceof Error ? cause.message : undefined;
}

/**
 * What a failed fetch or body read of a native adapter means: a ProviderError it raised itself, one of Marvin's
 * time limits, the person's cancel, a server that cannot be reached, or a stream cut short.
 */
export function fetchFailure(
  error: unknown,
  config: ProviderConfig,
  deadline: RequestDeadline,
  partialOutput: boolean,
): ProviderError {
  if (isProviderError(error)) return error;
  if (deadline.timedOut) return timeoutFailure(config, deadline.timedOut, partialOutput, error);
  if (deadline.signal.aborted) return cancelledFailure(config, partialOutput, error);
  if (error instanceof TypeError && error.message === "fetch failed") {
    return unreachableFailure(config, connectionDetail(error), partialOutput, error);
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new ProviderError(`The response stream from ${config.name} broke off: ${reason}`, {
    provider: config.name,
    kind: "stream_cut",
    partialOutput,
    cause: error,
  });
}
