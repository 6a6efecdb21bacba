import { parseRetryAfter } from "../../../shared/retry-after.js";
import { sleep } from "../../../shared/sleep.js";
import { cancelled, isTransient, type Peer, rateLimited, timedOut, unreachable } from "./failures.js";
import { waitForTurn } from "./pacing.js";
import { sendFollowingRedirects } from "./redirects.js";
import type { RequestPlan } from "./request-plan.js";
import { HttpResponse } from "./response.js";
import { ServiceError } from "./service-error.js";

/** The longest Retry-After Marvin waits out; a longer one fails with the time to come back. */
const LONGEST_RETRY_AFTER_MS = 10_000;
/** Pause before the one retry after a 5xx or network failure that gave no Retry-After. */
const RETRY_PAUSE_MS = 500;

function explainer(peer: Peer, outer: AbortSignal, deadline: AbortSignal, timeoutMs: number) {
  return (error: unknown): ServiceError => {
    if (error instanceof ServiceError) return error;
    if (outer.aborted) return cancelled(peer);
    if (deadline.aborted) return timedOut(peer, timeoutMs);
    return unreachable(peer, error);
  };
}

async function pause(ms: number, peer: Peer, outer: AbortSignal): Promise<void> {
  try {
    await sleep(ms, outer);
  } catch {
    throw cancelled(peer);
  }
}

/** A paced service's turn; the wait does not count against the request's timeout. */
async function paced(plan: RequestPlan, outer: AbortSignal): Promise<void> {
  if (!plan.pacing) return;
  try {
    await waitForTurn(plan.pacing.key, plan.pacing.intervalMs, outer);
  } catch {
    throw cancelled(plan.peer);
  }
}

/**
 * Runs the planned request and hands a 2xx answer (or one of the plan's passed statuses) to
 * `consume`, which reads the body under the same timeout. One retry after a 5xx or transient
 * network failure (for retryable methods); a 429's Retry-After is waited out once when it is at
 * most LONGEST_RETRY_AFTER_MS. Every attempt to a paced service waits for its turn first.
 */
export async function exchange<T>(
  plan: RequestPlan,
  outer: AbortSignal,
  consume: (response: HttpResponse) => Promise<T>,
): Promise<T> {
  const { peer } = plan;
  let retried = false;
  let waitedOutRateLimit = false;
  for (;;) {
    if (outer.aborted) throw cancelled(peer);
    await paced(plan, outer);
    const deadline = AbortSignal.timeout(plan.timeoutMs);
    const explain = explainer(peer, outer, deadline, plan.timeoutMs);
    let response: HttpResponse;
    try {
      const { raw, url } = await sendFollowingRedirects(plan, AbortSignal.any([outer, deadline]));
      response = new HttpResponse(raw, url.href, { peer, maxBytes: plan.maxBytes, explain });
    } catch (error) {
      const failure = explain(error);
      if (plan.retries && !retried && isTransient(failure)) {
        retried = true;
        await pause(RETRY_PAUSE_MS, peer, outer);
        continue;
      }
      throw failure;
    }

    const { status } = response;
    if (status === 429 || status >= 500) {
      const waitMs = parseRetryAfter(response.headers["retry-after"]);
      const canWait = waitMs === undefined || waitMs <= LONGEST_RETRY_AFTER_MS;
      if (status === 429 && !waitedOutRateLimit && waitMs !== undefined && canWait) {
        response.discard();
        waitedOutRateLimit = true;
        await pause(waitMs, peer, outer);
        continue;
      }
      if (status >= 500 && plan.retries && !retried && canWait) {
        response.discard();
        retried = true;
        await pause(waitMs ?? RETRY_PAUSE_MS, peer, outer);
        continue;
      }
      if (status === 429) {
        response.discard();
        throw rateLimited(peer, waitMs);
      }
      throw await response.failure(waitMs);
    }
    const passed = plan.passStatuses.has(status);
    if ((status < 200 || status >= 300) && !passed) throw await response.failure();

    try {
      return await consume(response);
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      const failure = error;
      if (plan.retries && !retried && isTransient(failure)) {
        retried = true;
        await pause(RETRY_PAUSE_MS, peer, outer);
        continue;
      }
      throw failure;
    }
  }
}
