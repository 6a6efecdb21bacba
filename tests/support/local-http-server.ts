import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

type HeaderMap = Record<string, string>;

export interface SeenRequest {
  method: string;
  /** Path and query, as the server received them. */
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
  /** The body as received, for binary uploads. */
  bytes: Buffer;
}

/** Answers one request; `index` counts requests from 0. */
export type Handler = (request: SeenRequest, response: ServerResponse, index: number) => void | Promise<void>;

export interface LocalHttpServer {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  origin: string;
  port: number;
  requests: SeenRequest[];
  /** TCP connections accepted so far (0 proves a refused URL never reached the server). */
  connections: number;
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 for service-client tests. It records requests and
 * connections, and shuts itself down after `lifetimeMs` even if a test forgets to close it.
 */
export async function startLocalHttpServer(handler: Handler, lifetimeMs = 60_000): Promise<LocalHttpServer> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (data: Buffer) => chunks.push(data));
    incoming.on("end", () => {
      const bytes = Buffer.concat(chunks);
      const { method = "", url = "", headers } = incoming;
      const seen = { method, url, headers, body: bytes.toString("utf8"), bytes };
      requests.push(seen);
      Promise.resolve(handler(seen, response, requests.length - 1)).catch(() => response.destroy());
    });
  });
  const state = { connections: 0 };
  server.on("connection", (socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  const timer = setTimeout(() => void close(), lifetimeMs);
  timer.unref();
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    get connections() {
      return state.connections;
    },
    close,
  };
}

/** The servers one test file starts, closed together in afterEach. */
export class LocalHttpServers {
  private readonly started: Array<Pick<LocalHttpServer, "close">> = [];

  async start(handler: Handler): Promise<LocalHttpServer> {
    const server = await startLocalHttpServer(handler);
    this.started.push(server);
    return server;
  }

  /** Closes a server started by another helper (a scripted API server) together with the others. */
  adopt<Server extends Pick<LocalHttpServer, "close">>(server: Server): Server {
    this.started.push(server);
    return server;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.started.splice(0).map((server) => server.close()));
  }
}

/** Writes `body` as JSON with the given status and headers. */
export function sendJson(response: ServerResponse, body: unknown, status = 200, headers: HeaderMap = {}): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

/** Writes `body` as text (HTML unless `headers` says another content type) with the given status. */
export function sendText(response: ServerResponse, body: string, status = 200, headers: HeaderMap = {}): void {
  response.writeHead(status, { "content-type": "text/html; charset=utf-8", ...headers });
  response.end(body);
}

/** A handler answering every request with `body` as JSON. */
export const answerJson =
  (body: unknown, status = 200, headers: HeaderMap = {}): Handler =>
  (_request, response) =>
    sendJson(response, body, status, headers);
