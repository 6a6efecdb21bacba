import type { ProviderConfig } from "./descriptor.js";
import type { TimeLimit } from "./failures.js";

/**
 * The two limits of one streaming request — the whole request (`timeoutMs`) and the silence between two chunks
 * (`idleTimeoutMs`) — and the caller's own cancel, as one abort signal for the HTTP call. `timedOut` says which
 * limit fired, so that a cancel and a timeout are told apart.
 */
export class RequestDeadline {
  private readonly controller = new AbortController();
  private readonly totalTimer: NodeJS.Timeout;
  private idleTimer: NodeJS.Timeout;
  private limitReached: TimeLimit | undefined;

  constructor(
    private readonly config: Pick<ProviderConfig, "timeoutMs" | "idleTimeoutMs">,
    private readonly outer?: AbortSignal,
  ) {
    outer?.addEventListener("abort", this.onOuterAbort, { once: true });
    if (outer?.aborted) this.controller.abort();
    this.totalTimer = setTimeout(() => this.expire("total"), config.timeoutMs);
    this.idleTimer = setTimeout(() => this.expire("idle"), config.idleTimeoutMs);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get timedOut(): TimeLimit | undefined {
    return this.limitReached;
  }

  /** Something arrived: the silence starts again. */
  touch(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.expire("idle"), this.config.idleTimeoutMs);
  }

  /** Stops the timers, lets go of the caller's signal and ends the request if it still runs (a reader that stopped early). */
  dispose(): void {
    clearTimeout(this.totalTimer);
    clearTimeout(this.idleTimer);
    this.outer?.removeEventListener("abort", this.onOuterAbort);
    this.controller.abort();
  }

  private readonly onOuterAbort = () => this.controller.abort();

  private expire(limit: TimeLimit): void {
    this.limitReached = limit;
    this.controller.abort();
  }
}
