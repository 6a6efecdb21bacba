import { z } from "zod";
import type { Env } from "../../../shared/env.js";
import type { OAuthTokens } from "../../../state/oauth-tokens.js";
import { ToolError } from "../../kit/define-tool.js";
import { createHttpClient, type ExternalService, ServiceError, serviceUrl } from "../../kit/http/index.js";

const SPOTIFY_ACCOUNTS: ExternalService = {
  name: "Spotify accounts",
  envVar: "MARVIN_SPOTIFY_ACCOUNTS_URL",
  defaultUrl: "https://accounts.spotify.com",
};

/** What Marvin asks to do: create playlists and fill them, private or public. */
export const SPOTIFY_SCOPES = "playlist-modify-private playlist-modify-public";

/** Token exchanges run outside a tool call's lifetime (the browser comes back later): their own limit. */
const TOKEN_REQUEST_TIMEOUT_MS = 30_000;

const tokenAnswer = z.object({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number(),
  refresh_token: z.string().optional(),
  scope: z.string().optional(),
});

export function authorizeUrl(env: Env, parameters: Record<string, string>): string {
  return serviceUrl(env, SPOTIFY_ACCOUNTS, "/authorize", { response_type: "code", ...parameters });
}

/** Spotify's own words for a refused grant (`error_description`), from the ServiceError that quotes them. */
function refusal(error: ServiceError): string {
  return /"([^"]+)"/.exec(error.message)?.[1] ?? `HTTP ${error.status}`;
}

async function requestTokens(env: Env, form: Record<string, string>): Promise<OAuthTokens> {
  const client = createHttpClient({ env, signal: AbortSignal.timeout(TOKEN_REQUEST_TIMEOUT_MS) });
  const target = { service: SPOTIFY_ACCOUNTS, path: "/api/token" };
  const response = await client.send(target, { method: "POST", body: new URLSearchParams(form) });
  const answer = await response.json(tokenAnswer);
  return {
    access_token: answer.access_token,
    token_type: answer.token_type,
    ...(answer.refresh_token ? { refresh_token: answer.refresh_token } : {}),
    ...(answer.scope !== undefined ? { scope: answer.scope } : {}),
    expires_at: Math.floor(Date.now() / 1000) + answer.expires_in,
  };
}

interface CodeExchange {
  clientId: string;
  code: string;
  redirectUri: string;
  verifier: string;
}

/** Trades the authorization code (with the PKCE verifier) for tokens. */
export async function exchangeCode(env: Env, exchange: CodeExchange): Promise<OAuthTokens> {
  try {
    return await requestTokens(env, {
      grant_type: "authorization_code",
      code: exchange.code,
      redirect_uri: exchange.redirectUri,
      client_id: exchange.clientId,
      code_verifier: exchange.verifier,
    });
  } catch (error) {
    if (error instanceof ServiceError && error.status === 400) {
      throw new ToolError(
        `Spotify did not accept the login code (${refusal(error)}). A code works once and only for a few minutes: ` +
          "run spotify_auth again for a fresh login.",
      );
    }
    throw error;
  }
}

/** New tokens for a saved refresh token; Spotify may or may not send a new refresh token with them. */
export async function refreshTokens(env: Env, clientId: string, saved: OAuthTokens): Promise<OAuthTokens> {
  if (!saved.refresh_token) throw new ToolError("The Spotify login has expired. Run spotify_auth to connect again.");
  try {
    const fresh = await requestTokens(env, {
      grant_type: "refresh_token",
      refresh_token: saved.refresh_token,
      client_id: clientId,
    });
    return { ...fresh, refresh_token: fresh.refresh_token ?? saved.refresh_token, scope: fresh.scope ?? saved.scope };
  } catch (error) {
    if (error instanceof ServiceError && error.status === 400) {
      throw new ToolError(
        `Spotify no longer accepts Marvin's saved login (${refusal(error)}). Run spotify_auth to connect again.`,
      );
    }
    throw error;
  }
}

/** SPOTIFY_CLIENT_ID, or a ToolError saying how to get one. */
export function spotifyClientId(env: Env, redirectUri: string): string {
  const clientId = env.SPOTIFY_CLIENT_ID?.trim();
  if (clientId) return clientId;
  throw new ToolError(
    "Spotify needs SPOTIFY_CLIENT_ID: create an app at https://developer.spotify.com/dashboard, add the redirect " +
      `URI ${redirectUri} to it, and set SPOTIFY_CLIENT_ID to the app's client ID before starting Marvin.`,
  );
}
