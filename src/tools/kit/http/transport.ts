import { type IncomingMessage, type OutgoingHttpHeaders, request as plainRequest } from "node:http";
import { request as secureRequest } from "node:https";
import type { LookupFunction } from "node:net";

interface WireRequest {
  url: URL;
  method: string;
  headers: OutgoingHttpHeaders;
  body: Buffer | undefined;
  /** Aborting destroys the request and its response, wherever they are. */
  signal: AbortSignal;
  /** The checked DNS lookup for URLs the model chose; undefined for trusted or literal addresses. */
  lookup: LookupFunction | undefined;
}

/** Sends one request, following no redirect; resolves with the response once its head arrives. */
export function sendOnce(wire: WireRequest): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const send = wire.url.protocol === "https:" ? secureRequest : plainRequest;
    const request = send(
      wire.url,
      {
        method: wire.method,
        headers: wire.headers,
        signal: wire.signal,
        // A checked connection gets its own socket: a pooled one may lead to an unchecked address.
        ...(wire.lookup ? { lookup: wire.lookup, agent: false } : {}),
      },
      resolve,
    );
    // Kept for the request's whole life: a late error (an abort after the answer) must not go unheard.
    request.on("error", reject);
    request.end(wire.body);
  });
}
