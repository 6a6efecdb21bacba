import type { IncomingMessage, OutgoingHttpHeaders } from "node:http";
import { badRedirect } from "./failures.js";
import type { HttpMethod, RequestPlan } from "./request-plan.js";
import { sendOnce } from "./transport.js";
import { guardUrl } from "./url-guard.js";

const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];
const BODY_HEADERS = ["content-type", "content-length"];

interface Hop {
  url: URL;
  method: HttpMethod;
  headers: OutgoingHttpHeaders;
  body: Buffer | undefined;
}

function nextHop(hop: Hop, status: number, location: URL): Hop {
  const headers = { ...hop.headers };
  if (location.origin !== hop.url.origin) for (const name of CREDENTIAL_HEADERS) delete headers[name];
  // 303 always, and 301/302 after a POST, turn into a GET without the body (as browsers do).
  const postRedirected = (status === 301 || status === 302) && hop.method === "POST";
  const becomesGet = hop.method !== "HEAD" && (status === 303 || postRedirected);
  if (!becomesGet) return { ...hop, url: location, headers };
  for (const name of BODY_HEADERS) delete headers[name];
  return { url: location, method: "GET", headers, body: undefined };
}

/**
 * Sends the planned request and follows up to MAX_REDIRECTS redirects by hand, checking every
 * URL against the private-address guard before anything is sent to it.
 */
export async function sendFollowingRedirects(
  plan: RequestPlan,
  signal: AbortSignal,
): Promise<{ raw: IncomingMessage; url: URL }> {
  let hop: Hop = { url: plan.url, method: plan.method, headers: plan.headers, body: plan.body };
  for (let redirects = 0; ; redirects++) {
    const lookup = guardUrl(hop.url, plan.peer, plan.guard);
    const raw = await sendOnce({ ...hop, signal, lookup });
    const status = raw.statusCode ?? 0;
    const location = raw.headers.location;
    if (!REDIRECT_STATUSES.has(status) || !location) return { raw, url: hop.url };
    raw.destroy();
    if (redirects === MAX_REDIRECTS) throw badRedirect(plan.peer, `redirected more than ${MAX_REDIRECTS} times`);
    let next: URL;
    try {
      next = new URL(location, hop.url);
    } catch {
      throw badRedirect(plan.peer, `redirected to an invalid address ('${location.slice(0, 100)}')`);
    }
    hop = nextHop(hop, status, next);
  }
}
