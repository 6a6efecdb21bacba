import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import pkceChallenge from "pkce-challenge";
import { singleLine } from "../../shared/control-characters.js";
import type { Env } from "../../shared/env.js";
import { errorMessage } from "../../shared/error-message.js";
import { jwtClaims } from "./jwt.js";
import { accountIdOf, signInPaths, writeSignIn } from "./sign-in-file.js";
import { authServerUrl, CODEX_CLIENT_ID, exchangeCode } from "./token-client.js";

/** The port ChatGPT's sign-in server sends the browser back to (registered for the codex CLI's client). */
const CALLBACK_PORT = 1455;
const CALLBACK_PATH = "/auth/callback";
const LOGIN_LIFETIME_MS = 10 * 60_000;

interface LoginIo {
  env: Env;
  home: string;
  /** Where the link and the outcome are written. */
  out: NodeJS.WritableStream;
  /** Where a redirect URL pasted from another machine's browser is read. */
  input: NodeJS.ReadableStream;
}

/** What came back to the redirect URI, from the browser or pasted. */
interface Callback {
  code?: string;
  state?: string;
  error?: string;
}

function callbackOf(url: URL): Callback {
  const get = (key: string) => url.searchParams.get(key) ?? undefined;
  return { code: get("code"), state: get("state"), error: get("error_description") ?? get("error") };
}

function callbackPort(env: Env): number {
  const setting = env.MARVIN_CODEX_CALLBACK_PORT?.trim();
  if (!setting) return CALLBACK_PORT;
  const port = Number(setting);
  if (Number.isInteger(port) && port >= 0 && port <= 65535) return port;
  throw new Error(`MARVIN_CODEX_CALLBACK_PORT is '${setting}', not a port number: unset it to use ${CALLBACK_PORT}.`);
}

const PAGE = (title: string, words: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><h1>${title}</h1><p>${words}</p>`;

/** Listens on 127.0.0.1 for the browser's return; `arrived` gets each callback's query. */
async function listen(port: number, arrived: (callback: Callback) => void): Promise<{ server: Server; port: number }> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (request.method !== "GET" || url.pathname !== CALLBACK_PATH) {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found\n");
      return;
    }
    const callback = callbackOf(url);
    const ok = callback.code !== undefined && callback.error === undefined;
    response.writeHead(200, { "content-type": "text/html; charset=utf-8", connection: "close" });
    response.end(
      ok
        ? PAGE("Signed in", "Marvin has your ChatGPT sign-in. You can close this tab.")
        : PAGE("Not signed in", "The sign-in did not complete; see Marvin's terminal."),
    );
    arrived(callback);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "EADDRINUSE"
          ? new Error(
              `port ${port} on 127.0.0.1 is in use (a codex login running?), so the browser cannot come back to ` +
                "Marvin: end what uses it and try again",
            )
          : error,
      ),
    );
    server.listen(port, "127.0.0.1", resolve);
  });
  return { server, port: (server.address() as AddressInfo).port };
}

/** The sign-in page's link: OAuth 2.0 authorization code with PKCE, as the codex CLI asks for it. */
function authorizeUrl(authUrl: string, redirectUri: string, challenge: string, state: string): string {
  const query = new URLSearchParams({
    response_type: "code",
    client_id: CODEX_CLIENT_ID,
    redirect_uri: redirectUri,
    scope: "openid profile email offline_access",
    code_challenge: challenge,
    code_challenge_method: "S256",
    id_token_add_organizations: "true",
    codex_cli_simplified_flow: "true",
    state,
    originator: "marvin",
  });
  return `${authUrl}/oauth/authorize?${query}`;
}

/** The first callback, from the browser or a redirect URL pasted on `input`; rejects after ten minutes. */
function firstCallback(io: LoginIo, listening: (arrived: (callback: Callback) => void) => void): Promise<Callback> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: io.input });
    const timer = setTimeout(() => finish(new Error("no sign-in arrived within 10 minutes")), LOGIN_LIFETIME_MS);
    const finish = (outcome: Callback | Error) => {
      clearTimeout(timer);
      lines.close();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    listening(finish);
    lines.on("line", (line) => {
      const pasted = line.trim();
      if (!pasted) return;
      try {
        finish(callbackOf(new URL(pasted)));
      } catch {
        io.out.write("That is not the address the browser ended on; paste the whole http://localhost… URL.\n");
      }
    });
  });
}

/** `marvin login codex`: signs in to ChatGPT and keeps the sign-in owner-only in Marvin's folder. 0 when done. */
export async function loginCodex(io: LoginIo): Promise<number> {
  const authUrl = authServerUrl(io.env);
  const { code_verifier: verifier, code_challenge: challenge } = await pkceChallenge();
  const state = randomBytes(24).toString("base64url");
  let server: Server | undefined;
  try {
    let arrived: (callback: Callback) => void = () => undefined;
    const listening = await listen(callbackPort(io.env), (callback) => arrived(callback));
    server = listening.server;
    const redirectUri = `http://localhost:${listening.port}${CALLBACK_PATH}`;
    const link = authorizeUrl(authUrl, redirectUri, challenge, state);
    io.out.write(
      `Sign in to ChatGPT in a browser on this machine:\n\n  ${link}\n\n` +
        "With the browser on another machine, paste here the address it ends on (http://localhost…).\n",
    );
    const callback = await firstCallback(io, (resolve) => {
      arrived = resolve;
    });
    if (callback.error) throw new Error(`the sign-in server said: ${callback.error}`);
    if (callback.state !== state) throw new Error("the answer does not belong to this sign-in (its state differs)");
    if (!callback.code) throw new Error("the answer carries no authorization code");
    const tokens = await exchangeCode(authUrl, { code: callback.code, verifier, redirectUri });
    const path = signInPaths(io.env, io.home).marvin;
    await writeSignIn(path, { OPENAI_API_KEY: null }, { ...tokens, account_id: accountIdOf(tokens) ?? null });
    const email = jwtClaims(tokens.id_token).email;
    const who = typeof email === "string" ? ` as ${singleLine(email)}` : "";
    io.out.write(`Signed in to ChatGPT${who}; the sign-in is kept in ${path}. Use it with LLM_PROVIDER=codex.\n`);
    return 0;
  } catch (error) {
    io.out.write(`marvin: the ChatGPT sign-in failed: ${singleLine(errorMessage(error))}.\n`);
    return 1;
  } finally {
    server?.close();
    server?.closeAllConnections();
  }
}
