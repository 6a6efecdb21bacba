import { randomBytes } from "node:crypto";
import pkceChallenge from "pkce-challenge";
import { errorMessage } from "../../shared/error-message.js";
import { saveOAuthTokens } from "../../state/oauth-tokens.js";
import { type ToolContext, ToolError } from "../define-tool.js";
import { authorizeUrl, exchangeCode, SPOTIFY_SCOPES, spotifyClientId } from "./accounts.js";
import { type CallbackPage, type CallbackQuery, type CallbackServer, startCallbackServer } from "./callback-server.js";

/** The key of Spotify's entry in tokens.json. */
export const SPOTIFY_TOKENS = "spotify";

const DEFAULT_CALLBACK_PORT = 8888;
/** How long a started login waits for the browser or a pasted code. */
const LOGIN_LIFETIME_MS = 10 * 60_000;

interface PendingLogin {
  url: string;
  state: string;
  verifier: string;
  clientId: string;
  server: CallbackServer;
  timer: NodeJS.Timeout;
  /** Finishes the login once, whichever of the browser and a pasted code comes first. */
  complete: (code: string) => Promise<string>;
}

/** Logins waiting for the browser, by the profile's tokens.json path. */
const pending = new Map<string, PendingLogin>();

function callbackPort(context: ToolContext): number {
  const setting = context.env.MARVIN_SPOTIFY_CALLBACK_PORT?.trim();
  if (!setting) return DEFAULT_CALLBACK_PORT;
  const port = Number(setting);
  if (Number.isInteger(port) && port >= 0 && port <= 65535) return port;
  throw new ToolError(`MARVIN_SPOTIFY_CALLBACK_PORT is '${setting}', not a port number. Give e.g. 8888, or unset it.`);
}

/** SPOTIFY_CLIENT_ID, or a ToolError naming the redirect URI to register with the app. */
export function configuredClientId(context: ToolContext): string {
  return spotifyClientId(context.env, `http://127.0.0.1:${callbackPort(context) || DEFAULT_CALLBACK_PORT}/callback`);
}

function end(tokensPath: string, login: PendingLogin): void {
  if (pending.get(tokensPath) !== login) return;
  pending.delete(tokensPath);
  clearTimeout(login.timer);
  login.server.close();
}

/** The browser's return: finishes the login and says how it went, in the browser. */
async function onCallback(tokensPath: string, query: CallbackQuery): Promise<CallbackPage> {
  const login = pending.get(tokensPath);
  if (!login) return { title: "No Spotify login is waiting", message: "Ask Marvin to connect again.", done: true };
  if (query.state !== login.state) {
    return {
      title: "Not Marvin's login",
      message: "This answer belongs to another login; it was ignored.",
      done: false,
    };
  }
  if (query.error || !query.code) {
    end(tokensPath, login);
    const reason = query.error ?? "no code came back";
    return {
      title: "Spotify login not completed",
      message: `Spotify said: ${reason}. Ask Marvin to try again.`,
      done: true,
    };
  }
  try {
    await login.complete(query.code);
    return { title: "Marvin is connected to Spotify", message: "You can close this tab.", done: true };
  } catch (error) {
    return { title: "Spotify login failed", message: errorMessage(error), done: true };
  }
}

/** Starts a login (or returns the one already waiting): the URL to open in the browser. */
export async function startLogin(context: ToolContext): Promise<{ url: string; redirectUri: string }> {
  const tokensPath = context.profiles.paths(context.profileName).tokens;
  const waiting = pending.get(tokensPath);
  if (waiting) return { url: waiting.url, redirectUri: waiting.server.redirectUri };
  const port = callbackPort(context);
  const clientId = configuredClientId(context);
  const { code_verifier: verifier, code_challenge: challenge } = await pkceChallenge();
  const state = randomBytes(16).toString("hex");
  const env = context.env;
  const server = await startCallbackServer(port, (query) => onCallback(tokensPath, query));
  const url = authorizeUrl(env, {
    client_id: clientId,
    redirect_uri: server.redirectUri,
    code_challenge_method: "S256",
    code_challenge: challenge,
    scope: SPOTIFY_SCOPES,
    state,
  });
  let finishing: Promise<string> | undefined;
  const login: PendingLogin = {
    url,
    state,
    verifier,
    clientId,
    server,
    timer: setTimeout(() => end(tokensPath, login), LOGIN_LIFETIME_MS).unref(),
    complete: (code) => {
      finishing ??= (async () => {
        try {
          const tokens = await exchangeCode(env, { clientId, code, redirectUri: server.redirectUri, verifier });
          await saveOAuthTokens(tokensPath, SPOTIFY_TOKENS, tokens);
          return tokens.scope ?? SPOTIFY_SCOPES;
        } finally {
          end(tokensPath, login);
        }
      })();
      return finishing;
    },
  };
  pending.set(tokensPath, login);
  return { url, redirectUri: server.redirectUri };
}

/** What the user pasted: the code itself, or the whole redirect URL the browser showed. */
function parsePasted(text: string): CallbackQuery {
  const trimmed = text.trim();
  if (!/^https?:\/\//i.test(trimmed) && !trimmed.includes("code=")) return { code: trimmed };
  const search = trimmed.includes("?") ? trimmed.slice(trimmed.indexOf("?")) : trimmed;
  const parameters = new URLSearchParams(search.replace(/^\?/, "").replace(/#.*$/, ""));
  const query: CallbackQuery = {};
  for (const key of ["code", "state", "error"] as const) {
    const value = parameters.get(key);
    if (value) query[key] = value;
  }
  return query;
}

/** Finishes the waiting login with a pasted code or redirect URL; returns the granted scopes. */
export async function finishLogin(context: ToolContext, pasted: string): Promise<string> {
  const tokensPath = context.profiles.paths(context.profileName).tokens;
  const login = pending.get(tokensPath);
  if (!login) {
    throw new ToolError("No Spotify login is waiting for a code: call spotify_auth without auth_code to start one.");
  }
  const query = parsePasted(pasted);
  if (query.error) {
    end(tokensPath, login);
    throw new ToolError(`Spotify did not grant access (${query.error}). Call spotify_auth again to retry.`);
  }
  if (query.state !== undefined && query.state !== login.state) {
    throw new ToolError("That redirect URL belongs to another login (its state does not match). Paste the newest one.");
  }
  if (!query.code) throw new ToolError("No code found in what was given: paste the code, or the whole redirect URL.");
  return login.complete(query.code);
}
