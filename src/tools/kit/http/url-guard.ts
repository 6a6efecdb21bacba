import { type LookupAddress, lookup as resolve } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import { refusedAddressReason } from "../../../shared/address-class.js";
import type { Env } from "../../../shared/env.js";
import { type Peer, refusedUrl, unreachable, unsupportedUrl } from "./failures.js";
import { ServiceError } from "./service-error.js";

const METADATA_NAMES = new Set(["metadata.google.internal", "metadata.goog"]);

export interface GuardPolicy {
  /** MARVIN_ALLOW_PRIVATE_URLS=1: every address may be fetched. */
  allowPrivate: boolean;
  /** Origins that are trusted settings (configured services): never checked. */
  trustedOrigins: ReadonlySet<string>;
}

function namedReason(hostname: string): string | undefined {
  // Plain "localhost" goes through the connect-time lookup, which refuses what it resolves to.
  if (hostname.endsWith(".localhost")) return `${hostname} is a loopback name`;
  if (METADATA_NAMES.has(hostname)) return `${hostname} is a cloud metadata service`;
  return undefined;
}

/**
 * A DNS lookup for the socket that resolves once and refuses when any resolved address is off
 * limits, so the connection goes to exactly the addresses that were checked.
 */
function checkedLookup(peer: Peer, url: URL): LookupFunction {
  return (hostname, options, callback) => {
    const everyAddress = { all: true, family: options.family, hints: options.hints } as const;
    resolve(hostname, everyAddress, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, "", 0);
      for (const { address } of addresses) {
        const reason = refusedAddressReason(address);
        if (reason) return callback(refusedUrl(peer, url.href, `${hostname} resolves to ${address}, ${reason}`), "", 0);
      }
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), "", 0);
      return callback(null, first.address, first.family);
    });
  };
}

/**
 * Checks one URL (the first or a redirect's) before anything is sent. Throws a ServiceError
 * for a scheme other than http(s) or an off-limits address; returns the lookup its connection
 * must use, or undefined when the URL needs no check at connect time.
 */
export function guardUrl(url: URL, peer: Peer, policy: GuardPolicy): LookupFunction | undefined {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw unsupportedUrl(peer, url.href, `it is a ${url.protocol} address; Marvin only fetches http and https.`);
  }
  if (policy.allowPrivate || policy.trustedOrigins.has(url.origin)) return undefined;
  const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "");
  if (isIP(hostname)) {
    const reason = refusedAddressReason(hostname);
    if (reason) throw refusedUrl(peer, url.href, `${hostname} is ${reason}`);
    return undefined;
  }
  const named = namedReason(hostname);
  if (named) throw refusedUrl(peer, url.href, named);
  return checkedLookup(peer, url);
}

/**
 * Checks a URL the model chose before handing it to a program that fetches it itself (yt-dlp):
 * http(s) only, and neither the address nor anything its name resolves to may be off limits,
 * unless MARVIN_ALLOW_PRIVATE_URLS=1. Throws the ServiceError the HTTP client would.
 */
export async function checkPublicUrl(address: string, env: Env): Promise<void> {
  const peer = { name: address, address };
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw unsupportedUrl(
      peer,
      `'${address}'`,
      "it is not a valid web address. Give a full URL such as https://example.org/page.",
    );
  }
  peer.name = url.host;
  const lookup = guardUrl(url, peer, {
    allowPrivate: env.MARVIN_ALLOW_PRIVATE_URLS === "1",
    trustedOrigins: new Set(),
  });
  if (!lookup) return;
  await new Promise<void>((resolve, reject) =>
    lookup(url.hostname, { all: true }, (error) => (error ? reject(error) : resolve())),
  ).catch((error: unknown) => {
    if (error instanceof ServiceError) throw error;
    throw unreachable(peer, error);
  });
}
