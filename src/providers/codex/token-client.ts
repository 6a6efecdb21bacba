import type { Env } from "../../shared/env.js";
import { errorMessage } from "../../shared/error-message.js";
import type { SignInTokens } from "./sign-in-file.js";

/** The OAuth client the codex CLI signs in as; ChatGPT's sign-in server knows its redirect URIs. */
export const CODEX_CLIENT_ID = "app_EMoamEEZ73f0CkXaXp7hrann";

/** The sign-in server's root: `MARVIN_OPENAI_AUTH_URL`, else OpenAI's. */
export function authServerUrl(env: Env): string {
  return (env.MARVIN_OPENAI_AUTH_URL?.trim() || "https://auth.openai.com").replace(/\/+$/, "");
}

interface TokenAnswer {
  id_token?: string;
  access_token?: string;
  refresh_token?: string;
}

/** What the sign-in server said about a refused request, in a few words. */
function refusal(status: number, body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: unknown; error_description?: unknown };
    const error = parsed.error as { message?: unknown; code?: unknown } | string | undefined;
    if (typeof error === "string") {
      return typeof parsed.error_description === "string" ? `${error}: ${parsed.error_description}` : error;
    }
    const said = [error?.code, error?.message].filter((part) => typeof part === "string").join(": ");
    if (said) return said;
  } catch {
    // Not JSON: the status says enough.
  }
  return `HTTP ${status}`;
}

async function tokenRequest(
  authUrl: string,
  init: { headers: Record<string, string>; body: string },
): Promise<TokenAnswer> {
  let response: Response;
  try {
    response = await fetch(`${authUrl}/oauth/token`, { method: "POST", ...init, signal: AbortSignal.timeout(30_000) });
  } catch (error) {
    throw new Error(`cannot reach ${authUrl} (${errorMessage(error)})`);
  }
  const body = await response.text();
  if (!response.ok) throw new Error(refusal(response.status, body));
  try {
    return JSON.parse(body) as TokenAnswer;
  } catch {
    throw new Error(`${authUrl}/oauth/token answered with something that is not JSON`);
  }
}

/** Trades a refresh token for new tokens; a refresh token is used up by it (the answer brings its successor). */
export async function refreshTokens(authUrl: string, current: SignInTokens): Promise<SignInTokens> {
  const answer = await tokenRequest(authUrl, {
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_id: CODEX_CLIENT_ID,
      grant_type: "refresh_token",
      refresh_token: current.refresh_token,
      scope: "openid profile email",
    }),
  });
  if (!answer.access_token) throw new Error("the sign-in server's answer has no access token");
  return {
    ...current,
    access_token: answer.access_token,
    id_token: answer.id_token ?? current.id_token,
    refresh_token: answer.refresh_token ?? current.refresh_token,
  };
}

/** Trades an authorization code (and the PKCE verifier it was asked with) for a sign-in's tokens. */
export async function exchangeCode(
  authUrl: string,
  grant: { code: string; verifier: string; redirectUri: string },
): Promise<SignInTokens> {
  const answer = await tokenRequest(authUrl, {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: grant.code,
      redirect_uri: grant.redirectUri,
      client_id: CODEX_CLIENT_ID,
      code_verifier: grant.verifier,
    }).toString(),
  });
  if (!answer.access_token || !answer.refresh_token || !answer.id_token) {
    throw new Error("the sign-in server's answer lacks the id, access or refresh token");
  }
  return { id_token: answer.id_token, access_token: answer.access_token, refresh_token: answer.refresh_token };
}
