import { createHash } from "node:crypto";
import type { ServerResponse } from "node:http";
import { streamEventsTo, type WireEvent } from "./event-stream-server.js";
import { type LocalHttpServer, type SeenRequest, sendJson, startLocalHttpServer } from "./local-http-server.js";
import { type ResponseScript, responseEvents } from "./responses-server.js";

/*
 * ChatGPT's sign-in server and Codex backend on 127.0.0.1, as the codex CLI meets them. The sign-in server
 * (`POST /oauth/token`) trades an authorization code (form-encoded, with the PKCE verifier) or a refresh token
 * (JSON) for tokens: JWT access tokens carrying `exp` and the `https://api.openai.com/auth` claim, and refresh
 * tokens good for one use. The backend (`POST /backend-api/codex/responses`) takes only a live access token and the
 * account header it belongs to, and streams Responses API events.
 */

export const ACCOUNT_ID = "8d1f2c3e-0000-4a5b-9c6d-acc0un71d000";

export type CodexReply =
  | { response: ResponseScript }
  | { status: number; body: unknown; headers?: Record<string, string> };

export interface SignInTokens {
  id_token: string;
  access_token: string;
  refresh_token: string;
  account_id: string;
}

export interface BackendRequest {
  headers: SeenRequest["headers"];
  body: { model: string; store: boolean; include?: string[]; input: Array<Record<string, unknown>> };
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

/** A JWT-shaped token (the client never checks signatures) expiring `lifetimeSeconds` from now. */
export function jwt(claims: Record<string, unknown>, lifetimeSeconds: number): string {
  const payload = {
    ...claims,
    exp: Math.floor(Date.now() / 1000) + lifetimeSeconds,
    iat: Math.floor(Date.now() / 1000),
  };
  return `${base64url({ alg: "RS256", typ: "JWT" })}.${base64url(payload)}.c2lnbmF0dXJl`;
}

const AUTH_CLAIM = { "https://api.openai.com/auth": { chatgpt_account_id: ACCOUNT_ID, chatgpt_plan_type: "plus" } };

export interface ChatGpt {
  /** MARVIN_OPENAI_AUTH_URL. */
  authUrl: string;
  /** MARVIN_CODEX_URL. */
  codexUrl: string;
  /** Tokens the sign-in server issued and still honours, the access token living `lifetimeSeconds`. */
  issue(lifetimeSeconds?: number): SignInTokens;
  /** Makes the backend refuse this access token from now on (it expired on the server's side). */
  expire(accessToken: string): void;
  /** Makes the sign-in server refuse this refresh token (signed out elsewhere). */
  revoke(refreshToken: string): void;
  /** The refresh-token requests the sign-in server got. */
  refreshes: Array<Record<string, string>>;
  /** The authorization-code requests it got. */
  codeExchanges: Array<Record<string, string>>;
  /** Codes it will honour: code → the PKCE challenge the sign-in link carried. */
  codes: Map<string, string>;
  backendRequests: BackendRequest[];
  close(): Promise<void>;
}

function refusedToken(response: ServerResponse): void {
  const error = {
    message: "Your authentication token has expired. Please try signing in again.",
    type: "invalid_request_error",
    code: "token_expired",
  };
  sendJson(response, { error }, 401);
}

/**
 * Starts both servers; backend request `i` gets `script[i]`. `refreshDelayMs` holds each refresh answer back,
 * so that requests can race it.
 */
export async function startChatGpt(script: CodexReply[], refreshDelayMs = 0): Promise<ChatGpt> {
  const liveAccess = new Set<string>();
  const liveRefresh = new Set<string>();
  let serial = 0;
  const issue = (lifetimeSeconds = 3600): SignInTokens => {
    serial += 1;
    const tokens = {
      id_token: jwt({ email: "marvin@example.com", ...AUTH_CLAIM }, 3600),
      access_token: jwt({ serial, ...AUTH_CLAIM }, lifetimeSeconds),
      refresh_token: `rt_${serial}_${"r".repeat(20)}`,
      account_id: ACCOUNT_ID,
    };
    liveAccess.add(tokens.access_token);
    liveRefresh.add(tokens.refresh_token);
    return tokens;
  };
  const refreshes: ChatGpt["refreshes"] = [];
  const codeExchanges: ChatGpt["codeExchanges"] = [];
  const codes = new Map<string, string>();
  const auth: LocalHttpServer = await startLocalHttpServer(async (request, response) => {
    if (request.method !== "POST" || request.url !== "/oauth/token")
      return sendJson(response, { error: "not_found" }, 404);
    if (request.headers["content-type"]?.includes("application/json")) {
      const body = JSON.parse(request.body) as Record<string, string>;
      refreshes.push(body);
      await new Promise((resolve) => setTimeout(resolve, refreshDelayMs));
      if (body.grant_type !== "refresh_token" || !liveRefresh.delete(body.refresh_token ?? "")) {
        const error = { code: "refresh_token_reused", message: "Your refresh token has already been used." };
        return sendJson(response, { error }, 401);
      }
      const { id_token, access_token, refresh_token } = issue();
      return sendJson(response, { id_token, access_token, refresh_token, expires_in: 3600 });
    }
    const form = Object.fromEntries(new URLSearchParams(request.body)) as Record<string, string>;
    codeExchanges.push(form);
    const challenge = codes.get(form.code ?? "");
    const verified = createHash("sha256")
      .update(form.code_verifier ?? "")
      .digest("base64url");
    if (form.grant_type !== "authorization_code" || challenge !== verified) {
      return sendJson(response, { error: "invalid_grant", error_description: "Invalid authorization code" }, 400);
    }
    codes.delete(form.code!);
    const { id_token, access_token, refresh_token } = issue();
    return sendJson(response, { id_token, access_token, refresh_token, expires_in: 3600 });
  });
  const backendRequests: BackendRequest[] = [];
  const backend: LocalHttpServer = await startLocalHttpServer(async (request, response) => {
    if (request.method !== "POST" || request.url !== "/backend-api/codex/responses") {
      return sendJson(response, { detail: "Not Found" }, 404);
    }
    const token = request.headers.authorization?.replace(/^Bearer /, "") ?? "";
    if (!liveAccess.has(token) || request.headers["chatgpt-account-id"] !== ACCOUNT_ID) return refusedToken(response);
    const body = JSON.parse(request.body) as BackendRequest["body"];
    backendRequests.push({ headers: request.headers, body });
    const reply = script[backendRequests.length - 1];
    if (!reply) return sendJson(response, { detail: "script exhausted" }, 500);
    if ("status" in reply) return sendJson(response, reply.body, reply.status, reply.headers);
    const events: WireEvent[] = responseEvents(reply.response, body.model).map((event, index) => ({
      ...event,
      sequence_number: index,
    }));
    await streamEventsTo(response, events);
  });
  return {
    authUrl: auth.origin,
    codexUrl: `${backend.origin}/backend-api/codex`,
    issue,
    expire: (accessToken) => liveAccess.delete(accessToken),
    revoke: (refreshToken) => liveRefresh.delete(refreshToken),
    refreshes,
    codeExchanges,
    codes,
    backendRequests,
    close: async () => {
      await Promise.all([auth.close(), backend.close()]);
    },
  };
}

/** The codex CLI's auth.json for `tokens`, as it writes it. */
export function codexAuthJson(tokens: SignInTokens): string {
  return `${JSON.stringify({ OPENAI_API_KEY: null, tokens, last_refresh: "2026-11-30T08:00:00.000000Z" }, null, 2)}\n`;
}
