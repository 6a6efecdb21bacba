/** Work that must stop when `signal` aborts or after a time limit, whichever comes first. */
interface Deadline {
  readonly signal: AbortSignal;
  /** Stops the timer once the work is done. */
  clear(): void;
}

/**
 * `signal`, also aborted with a TimeoutError after `ms`. Not AbortSignal.any([signal, AbortSignal.timeout(ms)]):
 * Node (20 to 24 at least, nodejs/node#57736) may garbage-collect such a timeout before it fires, and the work
 * then never stops. Here the timer holds its controller until it fires or is cleared.
 */
export function withDeadline(signal: AbortSignal | undefined, ms: number): Deadline {
  const timeout = new AbortController();
  const timer = setTimeout(
    () => timeout.abort(new DOMException(`The operation timed out after ${ms} ms.`, "TimeoutError")),
    ms,
  );
  return {
    signal: signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal,
    clear: () => clearTimeout(timer),
  };
}
