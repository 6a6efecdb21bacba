import type { OutgoingHttpHeaders } from "node:http";
import type { Env } from "../../../shared/env.js";
import { ACCEPTED_ENCODINGS } from "./decode.js";
import { type Peer, unsupportedUrl } from "./failures.js";
import { type ExternalService, joinUrl, type QueryParams, serviceBaseUrl } from "./service.js";
import { ServiceError } from "./service-error.js";
import type { GuardPolicy } from "./url-guard.js";
import { marvinUserAgent } from "./user-agent.js";

export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;

export type HttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";

/** What to ask: a path on a configured service (trusted), or a URL the model chose (guarded). */
export type Target = { service: ExternalService; path: string; query?: QueryParams } | { url: string };

export interface RequestOptions {
  method?: HttpMethod;
  /** Extra headers; they replace Marvin's defaults of the same name. */
  headers?: Readonly<Record<string, string>>;
  body?: string | Uint8Array | URLSearchParams;
  /** Sent as a JSON body (instead of `body`). */
  json?: unknown;
  /** Limit for the whole exchange of one attempt, body included. Default MARVIN_HTTP_TIMEOUT, else 15 s. */
  timeoutMs?: number;
  /** Cap on the decoded body. Default 5 MB. */
  maxBytes?: number;
  /**
   * 4xx statuses handed to the caller like a 2xx answer instead of thrown, for a service whose
   * error body says what was wrong in a form the caller reads itself (an HTML error page).
   */
  passStatuses?: readonly number[];
}

/** Everything one exchange needs, settled before the first byte is sent. */
export interface RequestPlan {
  url: URL;
  peer: Peer;
  method: HttpMethod;
  headers: OutgoingHttpHeaders;
  body: Buffer | undefined;
  timeoutMs: number;
  maxBytes: number;
  /** Whether a 5xx or network failure may be retried (never for POST and PATCH). */
  retries: boolean;
  guard: GuardPolicy;
  /** A paced service's queue (its base URL) and spacing; undefined when requests need no pacing. */
  pacing: { key: string; intervalMs: number } | undefined;
  passStatuses: ReadonlySet<number>;
}

export interface ClientSettings {
  env: Env;
  signal: AbortSignal;
  trustedOrigins: readonly string[];
}

function encodedBody(options: RequestOptions): { body: Buffer | undefined; contentType?: string } {
  const { body, json } = options;
  if (json !== undefined) return { body: Buffer.from(JSON.stringify(json)), contentType: "application/json" };
  if (body === undefined) return { body: undefined };
  if (body instanceof URLSearchParams) {
    return { body: Buffer.from(body.toString()), contentType: "application/x-www-form-urlencoded" };
  }
  if (typeof body === "string") return { body: Buffer.from(body), contentType: "text/plain; charset=utf-8" };
  return { body: Buffer.from(body), contentType: "application/octet-stream" };
}

/** A paced service's queue is its server: the usage policy binds requests to one server, not to its setting. */
function pacingOf(target: Target, env: Env): RequestPlan["pacing"] {
  if (!("service" in target) || target.service.minIntervalMs === undefined) return undefined;
  return { key: serviceBaseUrl(env, target.service), intervalMs: target.service.minIntervalMs };
}

function addressOf(target: Target, env: Env): { address: string; peer: Peer; trusted?: string } {
  if ("service" in target) {
    const base = serviceBaseUrl(env, target.service);
    const peer = { name: target.service.name, address: base, setting: target.service.envVar };
    return { address: joinUrl(base, target.path, target.query), peer, trusted: new URL(base).origin };
  }
  let host = target.url;
  try {
    host = new URL(target.url).host;
  } catch {
    // reported below, once the URL is parsed for real
  }
  return { address: target.url, peer: { name: host, address: target.url } };
}

/** MARVIN_HTTP_TIMEOUT (seconds) when set, else DEFAULT_TIMEOUT_MS: the limit of a request that names none. */
function defaultTimeoutMs(env: Env, peer: Peer): number {
  const setting = env.MARVIN_HTTP_TIMEOUT?.trim();
  if (!setting) return DEFAULT_TIMEOUT_MS;
  const seconds = Number(setting);
  if (Number.isFinite(seconds) && seconds > 0) return seconds * 1000;
  const problem = `MARVIN_HTTP_TIMEOUT is '${setting}', not a number of seconds. Give e.g. 15, or unset it.`;
  throw new ServiceError(problem, { service: peer.name, kind: "setting" });
}

export function planRequest(target: Target, options: RequestOptions, settings: ClientSettings): RequestPlan {
  const { address, peer, trusted } = addressOf(target, settings.env);
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    const problem = "it is not a valid web address. Give a full URL such as https://example.org/page.";
    throw unsupportedUrl(peer, `'${address}'`, problem);
  }
  const method = options.method ?? (options.json !== undefined || options.body !== undefined ? "POST" : "GET");
  const { body, contentType } = encodedBody(options);
  const headers: OutgoingHttpHeaders = { "user-agent": marvinUserAgent(), "accept-encoding": ACCEPTED_ENCODINGS };
  if (body) {
    headers["content-type"] = contentType;
    headers["content-length"] = body.length;
  }
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
  const trustedOrigins = new Set(settings.trustedOrigins.map((origin) => new URL(origin).origin));
  if (trusted) trustedOrigins.add(trusted);
  return {
    url,
    peer,
    method,
    headers,
    body,
    timeoutMs: options.timeoutMs ?? defaultTimeoutMs(settings.env, peer),
    maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
    retries: method !== "POST" && method !== "PATCH",
    guard: { allowPrivate: settings.env.MARVIN_ALLOW_PRIVATE_URLS === "1", trustedOrigins },
    pacing: pacingOf(target, settings.env),
    passStatuses: new Set(options.passStatuses),
  };
}
