import { randomBytes } from "node:crypto";
import pkceChallenge from "pkce-challenge";
import type { Env } from "../../../shared/env.js";
import { errorMessage } from "../../../shared/error-message.js";
import { saveOAuthTokens } from "../../../state/oauth-tokens.js";
import type { ProfilePaths } from "../../../state/paths.js";
import {
  clearPendingLogin,
  loadPendingLogin,
  type PendingLogin,
  savePendingLogin,
} from "../../../state/pending-logins.js";
import { type ToolContext, ToolError } from "../../kit/define-tool.js";
import { authorizeUrl, exchangeCode, SPOTIFY_SCOPES, spotifyClientId } from "./accounts.js";
import { type CallbackPage, type CallbackQuery, type CallbackServer, startCallbackServer } from "./callback-server.js";

/** The key of Spotify's entry in tokens.json and pending_logins.json. */
export const SPOTIFY_TOKENS = "spotify";

const DEFAULT_CALLBACK_PORT = 8888;
/** How long a started login waits for the browser or a pasted code (Spotify's codes are short-lived too). */
const LOGIN_LIFETIME_MS = 10 * 60_000;

/**
 * A login this process started and listens for: the browser's return reaches its callback server
 * until the login ends. What finishing it needs is saved as well, so a later run can finish it
 * with a pasted code (`finishLogin`).
 */
interface ListeningLogin {
  login: PendingLogin;
  env: Env;
  server: CallbackServer;
  timer: NodeJS.Timeout;
  /** The one exchange, whichever of the browser and a pasted code comes first. */
  finishing?: Promise<string>;
}

/** Logins waiting for the browser in this process, by the profile's tokens.json path. */
const listening = new Map<string, ListeningLogin>();

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

/** Ends the login with `state`: stops listening for it here and forgets it on disk. */
async function end(paths: ProfilePaths, state: string): Promise<void> {
  const here = listening.get(paths.tokens);
  if (here?.login.state === state) {
    listening.delete(paths.tokens);
    clearTimeout(here.timer);
    here.server.close();
  }
  await clearPendingLogin(paths.pendingLogins, SPOTIFY_TOKENS, state);
}

async function exchange(env: Env, paths: ProfilePaths, login: PendingLogin, code: string): Promise<string> {
  try {
    const grant = { clientId: login.client_id, code, redirectUri: login.redirect_uri, verifier: login.verifier };
    const tokens = await exchangeCode(env, grant);
    await saveOAuthTokens(paths.tokens, SPOTIFY_TOKENS, tokens);
    return tokens.scope ?? SPOTIFY_SCOPES;
  } finally {
    await end(paths, login.state);
  }
}

/** Trades the code for tokens and ends the login; returns the granted scopes. */
function complete(env: Env, paths: ProfilePaths, login: PendingLogin, code: string): Promise<string> {
  const here = listening.get(paths.tokens);
  if (here?.login.state !== login.state) return exchange(env, paths, login, code);
  here.finishing ??= exchange(here.env, paths, login, code);
  return here.finishing;
}

/** The browser's return: finishes the login and says how it went, in the browser. */
async function onCallback(paths: ProfilePaths, query: CallbackQuery): Promise<CallbackPage> {
  const here = listening.get(paths.tokens);
  if (!here) return { title: "No Spotify login is waiting", message: "Ask Marvin to connect again.", done: true };
  if (query.state !== here.login.state) {
    return {
      title: "Not Marvin's login",
      message: "This answer belongs to another login; it was ignored.",
      done: false,
    };
  }
  if (query.error || !query.code) {
    await end(paths, here.login.state);
    const reason = query.error ?? "no code came back";
    return {
      title: "Spotify login not completed",
      message: `Spotify said: ${reason}. Ask Marvin to try again.`,
      done: true,
    };
  }
  try {
    await complete(here.env, paths, here.login, query.code);
    return { title: "Marvin is connected to Spotify", message: "You can close this tab.", done: true };
  } catch (error) {
    return { title: "Spotify login failed", message: errorMessage(error), done: true };
  }
}

/**
 * Starts a login (or returns the one this process is already waiting for): the URL to open in
 * the browser. The login is saved, so that a later run can finish it with a pasted code.
 */
export async function startLogin(context: ToolContext): Promise<{ url: string; redirectUri: string }> {
  const paths = context.profiles.paths(context.profileName);
  const waiting = listening.get(paths.tokens);
  if (waiting) return { url: waiting.login.url, redirectUri: waiting.login.redirect_uri };
  const port = callbackPort(context);
  const clientId = configuredClientId(context);
  const { code_verifier: verifier, code_challenge: challenge } = await pkceChallenge();
  const state = randomBytes(16).toString("hex");
  const server = await startCallbackServer(port, (query) => onCallback(paths, query));
  const redirectUri = server.redirectUri;
  const url = authorizeUrl(context.env, {
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge_method: "S256",
    code_challenge: challenge,
    scope: SPOTIFY_SCOPES,
    state,
  });
  const expiresAt = Date.now() + LOGIN_LIFETIME_MS;
  const login = { url, state, verifier, client_id: clientId, redirect_uri: redirectUri, expires_at: expiresAt };
  try {
    await savePendingLogin(paths.pendingLogins, SPOTIFY_TOKENS, login);
  } catch (error) {
    server.close();
    throw error;
  }
  const timer = setTimeout(() => void end(paths, state).catch(() => undefined), LOGIN_LIFETIME_MS).unref();
  listening.set(paths.tokens, { login, env: context.env, server, timer });
  return { url, redirectUri };
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

/** The saved login a pasted code belongs to, or a ToolError saying how to start one. */
async function waitingLogin(paths: ProfilePaths): Promise<PendingLogin> {
  const login = await loadPendingLogin(paths.pendingLogins, SPOTIFY_TOKENS);
  if (!login) {
    throw new ToolError("No Spotify login is waiting for a code: call spotify_auth without auth_code to start one.");
  }
  if (login.expires_at <= Date.now()) {
    await end(paths, login.state);
    throw new ToolError(
      `The Spotify login expired: a login waits ${LOGIN_LIFETIME_MS / 60_000} minutes for its code. Call ` +
        "spotify_auth without auth_code for a new login address.",
    );
  }
  return login;
}

/**
 * Finishes the waiting login, started in this run or an earlier one, with a pasted code or
 * redirect URL; returns the granted scopes.
 */
export async function finishLogin(context: ToolContext, pasted: string): Promise<string> {
  const paths = context.profiles.paths(context.profileName);
  const login = await waitingLogin(paths);
  const query = parsePasted(pasted);
  if (query.error) {
    await end(paths, login.state);
    throw new ToolError(`Spotify did not grant access (${query.error}). Call spotify_auth again to retry.`);
  }
  if (query.state !== undefined && query.state !== login.state) {
    throw new ToolError("That redirect URL belongs to another login (its state does not match). Paste the newest one.");
  }
  if (!query.code) throw new ToolError("No code found in what was given: paste the code, or the whole redirect URL.");
  return complete(context.env, paths, login, query.code);
}
