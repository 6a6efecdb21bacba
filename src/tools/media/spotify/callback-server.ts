import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ToolError } from "../../kit/define-tool.js";

/** What came back to the redirect URI: the code and state, or Spotify's error ("access_denied"). */
export interface CallbackQuery {
  code?: string;
  state?: string;
  error?: string;
}

export interface CallbackServer {
  /** `http://127.0.0.1:PORT/callback`: the redirect URI registered with the Spotify app. */
  redirectUri: string;
  close(): void;
}

const CALLBACK_PATH = "/callback";

function page(title: string, message: string): string {
  const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);
  const heading = escapeHtml(title);
  const body = `<h1>${heading}</h1><p>${escapeHtml(message)}</p>`;
  return `<!doctype html><meta charset="utf-8"><title>${heading}</title>${body}`;
}

/** What to show the browser after `finish` handled the callback: a heading and one sentence. */
export interface CallbackPage {
  title: string;
  message: string;
  /** The login is over: the server closes once the page is sent. */
  done: boolean;
}

/**
 * Listens on 127.0.0.1 only (`port` 0 = any free port) for the browser's return from Spotify.
 * `finish` gets the callback's query and decides the page the browser shows; the server answers
 * other paths with 404 and does not keep the process alive.
 */
export async function startCallbackServer(
  port: number,
  finish: (query: CallbackQuery) => Promise<CallbackPage>,
): Promise<CallbackServer> {
  const close = () => {
    server.close();
    server.closeIdleConnections();
  };
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (request.method !== "GET" || url.pathname !== CALLBACK_PATH) {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found\n");
      return;
    }
    const query: CallbackQuery = {};
    for (const key of ["code", "state", "error"] as const) {
      const value = url.searchParams.get(key);
      if (value) query[key] = value;
    }
    void finish(query).then(({ title, message, done }) => {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8", connection: "close" });
      response.end(page(title, message), () => done && close());
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EADDRINUSE") return reject(error);
      reject(
        new ToolError(
          `Port ${port} on 127.0.0.1 is in use, so Marvin cannot receive Spotify's login callback. Close what uses ` +
            "it, or set MARVIN_SPOTIFY_CALLBACK_PORT to a free port and add http://127.0.0.1:PORT/callback to the " +
            "Spotify app's redirect URIs.",
        ),
      );
    });
    server.listen(port, "127.0.0.1", resolve);
  });
  server.unref();
  const { port: bound } = server.address() as AddressInfo;
  return { redirectUri: `http://127.0.0.1:${bound}${CALLBACK_PATH}`, close };
}
