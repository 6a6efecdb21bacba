import { STATUS_CODES } from "node:http";
import { formatDuration } from "../../../shared/duration.js";
import { errorMessage } from "../../../shared/error-message.js";
import { ServiceError, type ServiceErrorDetails, type ServiceErrorKind } from "./service-error.js";

/** Who a request goes to, as messages name it. */
export interface Peer {
  /** "Open-Meteo", or the host of a URL the model gave. */
  name: string;
  /** The address asked for: a service's base URL, or the model's URL. */
  address: string;
  /** The MARVIN_*_URL setting of a configured service. */
  setting?: string;
}

export function describeBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / 1024 / 1024).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
  return `${bytes} bytes`;
}

function describeSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

type Extra = Partial<ServiceErrorDetails>;

function fail(peer: Peer, kind: ServiceErrorKind, message: string, more: Extra = {}): ServiceError {
  return new ServiceError(message, { service: peer.name, kind, ...more });
}

/** Where else to look when a configured service cannot be reached. */
function orTheSetting(peer: Peer): string {
  return peer.setting ? ` (or that ${peer.setting}=${peer.address} is right)` : "";
}

export function timedOut(peer: Peer, timeoutMs: number): ServiceError {
  const limit = describeSeconds(timeoutMs);
  const message = `${peer.name} took longer than ${limit} to answer`;
  return fail(peer, "timeout", `${message} — try again in a minute, or ask for less.`);
}

export function cancelled(peer: Peer): ServiceError {
  return fail(peer, "cancelled", `The request to ${peer.name} was cancelled.`);
}

const CERTIFICATE_CODES = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|ERR_SSL/;

/** A failure to reach the peer (DNS, refused connection, reset, TLS), from Node's error code. */
export function unreachable(peer: Peer, error: unknown): ServiceError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? "";
  const more = { cause: error };
  if (code === "ENOTFOUND") {
    const host = new URL(peer.address).hostname;
    const message = `Could not find ${peer.name}: the name ${host} does not resolve`;
    const advice = `check the address${orTheSetting(peer)} and the network connection`;
    return fail(peer, "network", `${message} — ${advice}.`, more);
  }
  if (code === "ECONNREFUSED") {
    const message = `Nothing answers at ${peer.address} (connection refused) — ${peer.name} may be down`;
    return fail(peer, "network", `${message}; try again later${orTheSetting(peer)}.`, more);
  }
  if (CERTIFICATE_CODES.test(code)) {
    const message = `The secure connection to ${peer.name} failed: its certificate is not trusted (${code}).`;
    return fail(peer, "network", `${message} Marvin does not ignore certificate errors.`, more);
  }
  const reason = code || errorMessage(error);
  const advice = `check the network connection and try again in a minute${orTheSetting(peer)}`;
  return fail(peer, "network", `Could not reach ${peer.name} (${reason}) — ${advice}.`, more);
}

const TRANSIENT_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENETDOWN",
]);

/** A network failure worth one more try (not a missing name or a bad certificate). */
export function isTransient(failure: ServiceError): boolean {
  const code = (failure.cause as NodeJS.ErrnoException | undefined)?.code ?? "";
  return failure.kind === "network" && TRANSIENT_CODES.has(code);
}

export function tooLarge(peer: Peer, maxBytes: number): ServiceError {
  const message = `${peer.name} sent more than ${describeBytes(maxBytes)}; Marvin stopped reading there`;
  return fail(peer, "too-large", `${message} — ask for less (a narrower query, fewer results).`);
}

export function badAnswer(peer: Peer, problem: string): ServiceError {
  const check = peer.setting ? ` Check that ${peer.setting}=${peer.address} points at ${peer.name}.` : "";
  return fail(peer, "bad-answer", `${peer.name} sent an answer Marvin does not understand: ${problem}${check}`);
}

function whenToRetry(waitMs: number | undefined): string {
  return waitMs === undefined ? "try again in a minute" : `try again in ${formatDuration(waitMs)}`;
}

export function rateLimited(peer: Peer, waitMs: number | undefined): ServiceError {
  const message = `${peer.name} is limiting how often Marvin may ask (HTTP 429) — ${whenToRetry(waitMs)}.`;
  return fail(peer, "rate-limited", message, { status: 429 });
}

function statusAdvice(status: number, waitMs: number | undefined): string {
  if (status >= 500) return ` — ${whenToRetry(waitMs)}`;
  if (status === 401 || status === 403) return " — it refused access; check the API key, if the service needs one";
  if (status === 404 || status === 410) return " — not found; check the name or address asked for";
  if (status === 400 || status === 422) return " — it did not accept the request; check the parameters";
  if (status >= 300 && status < 400) return " — a redirect Marvin cannot follow";
  return "";
}

interface ErrorBody {
  /** The message field of the error body, if there was one. */
  excerpt?: string | undefined;
  /** The body's first bytes as text. */
  body?: string | undefined;
}

/** An HTTP error status, quoting the error body's message field. */
export function failedStatus(peer: Peer, status: number, answer: ErrorBody = {}, waitMs?: number): ServiceError {
  const { excerpt, body } = answer;
  const name = STATUS_CODES[status];
  const answered = `${peer.name} answered HTTP ${status}${name ? ` (${name})` : ""}${excerpt ? `: "${excerpt}"` : ""}`;
  const more = { status, ...(body ? { body } : {}), ...(excerpt ? { excerpt } : {}) };
  return fail(peer, "status", `${answered}${statusAdvice(status, waitMs)}.`, more);
}

export function refusedUrl(peer: Peer, url: string, reason: string): ServiceError {
  return fail(
    peer,
    "refused",
    `Marvin does not open ${url}: ${reason}. Private and local network addresses are off limits for addresses ` +
      "the model picks (the user can allow them with MARVIN_ALLOW_PRIVATE_URLS=1).",
  );
}

export function unsupportedUrl(peer: Peer, url: string, problem: string): ServiceError {
  return fail(peer, "refused", `Marvin cannot open ${url}: ${problem}`);
}

export function badRedirect(peer: Peer, problem: string): ServiceError {
  return fail(peer, "redirect", `${peer.name} ${problem} — the address may be wrong or the page may have moved.`);
}
