import type { BrowserContext, Route } from "playwright-core";
import type { ToolContext } from "../../../kit/define-tool.js";
import { http, ServiceError } from "../../../kit/http/index.js";

/** Request headers the browser sets that Marvin's client sets itself (or that describe the connection). */
const DROPPED_REQUEST_HEADERS = new Set(["host", "connection", "content-length", "accept-encoding", "user-agent"]);
/** Response headers that no longer fit once the client has decoded and fully read the body. */
const DROPPED_RESPONSE_HEADERS = new Set(["content-encoding", "content-length", "transfer-encoding", "connection"]);

type Method = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";
const METHODS = new Set<string>(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]);

function responseHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || DROPPED_RESPONSE_HEADERS.has(name)) continue;
    result[name] = Array.isArray(value) ? value.join(name === "set-cookie" ? "\n" : ", ") : value;
  }
  return result;
}

/** Refusals of the address guard, by URL, so the page's own address can be reported as refused. */
type Refusals = Map<string, ServiceError>;

async function fetchThroughClient(route: Route, context: Pick<ToolContext, "env" | "signal">, refusals: Refusals) {
  const request = route.request();
  const method = request.method().toUpperCase();
  if (!METHODS.has(method)) return route.abort("blockedbyclient");
  const headers = Object.fromEntries(
    Object.entries(await request.allHeaders()).filter(([name]) => !DROPPED_REQUEST_HEADERS.has(name)),
  );
  const body = request.postDataBuffer() ?? undefined;
  try {
    const response = await http(context).send(
      { url: request.url() },
      { method: method as Method, headers, ...(body ? { body } : {}) },
    );
    if (response.url !== request.url()) {
      // Redirects were followed (and checked) by the client; the browser learns the final address.
      response.discard();
      return route.fulfill({ status: 302, headers: { location: response.url } });
    }
    const bytes = await response.bytes();
    return route.fulfill({ status: response.status, headers: responseHeaders(response.headers), body: bytes });
  } catch (error) {
    if (error instanceof ServiceError && error.kind === "status" && error.status) {
      // A body, so the browser shows the error page and the navigation reports its status.
      return route.fulfill({ status: error.status, contentType: "text/plain", body: `HTTP ${error.status}` });
    }
    if (error instanceof ServiceError && error.kind === "refused") {
      refusals.set(request.url(), error);
      return route.abort("blockedbyclient");
    }
    return route.abort("failed");
  }
}

/**
 * Sends every request of the browser through Marvin's HTTP client, so the address guard (private and
 * local addresses refused, checked on the resolved address and at every redirect) covers the page and
 * everything it loads; the browser itself reaches no network. WebSockets are closed.
 */
export async function routeThroughClient(
  browser: BrowserContext,
  context: Pick<ToolContext, "env" | "signal">,
): Promise<Refusals> {
  const refusals: Refusals = new Map();
  await browser.route("**/*", (route) => fetchThroughClient(route, context, refusals).catch(() => undefined));
  await browser.routeWebSocket(/.*/, (socket) => socket.close());
  return refusals;
}
