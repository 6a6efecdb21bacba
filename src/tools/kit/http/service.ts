import type { Env } from "../../../shared/env.js";
import { ServiceError } from "./service-error.js";

/**
 * An external service a tool domain talks to, declared once per domain:
 * `{ name: "Open-Meteo", envVar: "MARVIN_OPEN_METEO_URL", defaultUrl: "https://api.open-meteo.com" }`.
 */
export interface ExternalService {
  /** How messages name it: "Open-Meteo". */
  readonly name: string;
  /** The setting that replaces the base URL. */
  readonly envVar: `MARVIN_${string}_URL`;
  /** Origin plus any mount path, without the API version: tools append "/v1/…" themselves. */
  readonly defaultUrl: string;
  /**
   * At most one request every this many ms, across every caller in the process, retries included (a
   * usage policy such as Nominatim's or MusicBrainz's one request a second). Unset: no pacing.
   */
  readonly minIntervalMs?: number;
}

export type QueryValue = string | number | boolean;
/** Query parameters: undefined and null are left out, an array repeats the key. */
export type QueryParams = Readonly<Record<string, QueryValue | readonly QueryValue[] | null | undefined>>;

/** The service's base URL from its setting (or the default), without trailing slashes. */
export function serviceBaseUrl(env: Env, service: ExternalService): string {
  const configured = env[service.envVar]?.trim();
  const base = configured || service.defaultUrl;
  let parsed: URL | undefined;
  try {
    parsed = new URL(base);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:") || parsed.search || parsed.hash) {
    throw new ServiceError(
      `${service.envVar} is not a usable address for ${service.name} ('${base}'). Give an http(s) URL without ` +
        `query or fragment, e.g. ${service.defaultUrl}, or unset it to use that default.`,
      { service: service.name, kind: "setting" },
    );
  }
  return base.replace(/\/+$/, "");
}

/** `key=value&…`, each part percent-encoded; empty when nothing is left. */
export function encodeQuery(query: QueryParams): string {
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    const values: readonly QueryValue[] = Array.isArray(value) ? value : [value as QueryValue];
    for (const item of values) pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(item))}`);
  }
  return pairs.join("&");
}

/**
 * `base` + `path` by string joining (so a mount path in `base` is kept), plus the encoded query.
 * A path of "/" is the root of the mount: `joinUrl("https://h/ntfy", "/")` is "https://h/ntfy/".
 */
export function joinUrl(base: string, path: string, query?: QueryParams): string {
  const trimmedPath = path.replace(/^\/+/, "");
  const joined = path ? `${base.replace(/\/+$/, "")}/${trimmedPath}` : base.replace(/\/+$/, "");
  const encoded = query ? encodeQuery(query) : "";
  if (!encoded) return joined;
  return `${joined}${joined.includes("?") ? "&" : "?"}${encoded}`;
}

/**
 * The full URL of `path` (e.g. "/v1/forecast") on a service:
 * `serviceUrl(env, OPEN_METEO, "/v1/forecast", { latitude: 52.5 })`.
 */
export function serviceUrl(env: Env, service: ExternalService, path: string, query?: QueryParams): string {
  return joinUrl(serviceBaseUrl(env, service), path, query);
}
