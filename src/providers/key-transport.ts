import { isIP } from "node:net";
import { isLoopbackAddress } from "../shared/address-class.js";
import type { Env } from "../shared/env.js";
import { hideUrlCredentials } from "../shared/url-credentials.js";
import type { ProviderConfig } from "./descriptor.js";

/** The setting that lets an API key travel over plain http to another machine. */
const ALLOW_HTTP_KEYS = "MARVIN_ALLOW_HTTP_KEYS";

/** Whether `url` is plain http to a host other than this machine (a loopback address or `localhost`). */
function plainHttpElsewhere(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false; // not a URL: the request fails on its own, without sending anything
  }
  if (parsed.protocol !== "http:") return false;
  const host = parsed.hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "");
  if (isIP(host)) return !isLoopbackAddress(host);
  return host !== "localhost" && !host.endsWith(".localhost");
}

/**
 * Why the provider's API key must not be sent to its base URL: plain http to another machine, where anyone on the
 * way can read it, unless MARVIN_ALLOW_HTTP_KEYS=1. Undefined when it may (https, loopback, no key).
 */
export function plainHttpKeyProblem(
  config: Pick<ProviderConfig, "name" | "baseUrl" | "apiKey" | "keyHint">,
  env: Env,
): string | undefined {
  if (!config.apiKey || !config.baseUrl || !plainHttpElsewhere(config.baseUrl)) return undefined;
  if (env[ALLOW_HTTP_KEYS]?.trim() === "1") return undefined;
  return (
    `Not sending ${config.keyHint ?? `the ${config.name} API key`} to ${hideUrlCredentials(config.baseUrl)}: it is ` +
    "plain http:// to another machine, where anyone on the way could read the key. Use an https:// URL, or set " +
    `${ALLOW_HTTP_KEYS}=1 if that network is yours and you accept the risk.`
  );
}
