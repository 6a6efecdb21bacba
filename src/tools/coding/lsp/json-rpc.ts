import type { Readable, Writable } from "node:stream";
import { errorMessage } from "../../../shared/error-message.js";

/** A message larger than this ends the connection: a language server never needs it, a broken one might send it. */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
const HEADER_END = Buffer.from("\r\n\r\n");

interface ResponseError {
  code: number;
  message: string;
}

type Message = {
  id?: number | string | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: ResponseError;
};

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

/** What the other side may ask of us; an unknown method is answered "method not found". */
type RequestHandler = (params: unknown) => unknown;

const METHOD_NOT_FOUND = -32601;

/**
 * JSON-RPC 2.0 over a byte stream with `Content-Length` framing, as the Language Server Protocol
 * speaks it on stdio: requests with answers, notifications both ways, and requests from the server.
 */
export class JsonRpcConnection {
  private nextId = 1;
  private buffered = Buffer.alloc(0);
  private readonly pending = new Map<number, Pending>();
  private readonly notificationHandlers = new Map<string, (params: unknown) => void>();
  private readonly requestHandlers = new Map<string, RequestHandler>();
  private closedReason: string | undefined;

  constructor(
    input: Readable,
    private readonly output: Writable,
  ) {
    input.on("data", (chunk: Buffer) => this.receive(chunk));
    input.on("close", () => this.close("the server closed its output"));
    output.on("error", (error) => this.close(error.message));
  }

  onNotification(method: string, handler: (params: unknown) => void): void {
    this.notificationHandlers.set(method, handler);
  }

  onRequest(method: string, handler: RequestHandler): void {
    this.requestHandlers.set(method, handler);
  }

  request(method: string, params: unknown): Promise<unknown> {
    if (this.closedReason) return Promise.reject(new Error(`Connection closed: ${this.closedReason}`));
    const id = this.nextId++;
    const answer = new Promise<unknown>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.send({ id, method, params });
    return answer;
  }

  notify(method: string, params: unknown): void {
    if (!this.closedReason) this.send({ method, params });
  }

  /** Fails every request still waiting; later ones fail at once. */
  close(reason: string): void {
    if (this.closedReason) return;
    this.closedReason = reason;
    for (const { reject } of this.pending.values()) reject(new Error(`Connection closed: ${reason}`));
    this.pending.clear();
  }

  private send(message: Message): void {
    if (this.closedReason) return;
    const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", ...message }), "utf8");
    this.output.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, "ascii"), body]));
  }

  private receive(chunk: Buffer): void {
    this.buffered = Buffer.concat([this.buffered, chunk]);
    for (;;) {
      const headerEnd = this.buffered.indexOf(HEADER_END);
      if (headerEnd === -1) return;
      const header = this.buffered.subarray(0, headerEnd).toString("ascii");
      const length = Number(/content-length:\s*(\d+)/i.exec(header)?.[1] ?? Number.NaN);
      if (!Number.isSafeInteger(length) || length > MAX_MESSAGE_BYTES) {
        this.close(`the server sent a message without a valid Content-Length (${JSON.stringify(header)})`);
        this.buffered = Buffer.alloc(0);
        return;
      }
      const start = headerEnd + HEADER_END.length;
      if (this.buffered.length < start + length) return;
      const body = this.buffered.subarray(start, start + length).toString("utf8");
      this.buffered = this.buffered.subarray(start + length);
      this.dispatch(body);
    }
  }

  private dispatch(body: string): void {
    let message: Message;
    try {
      message = JSON.parse(body) as Message;
    } catch {
      return; // one garbled message is skipped; the framing is still intact
    }
    if (typeof message !== "object" || message === null) return;
    if (message.method === undefined) return this.settle(message);
    if (message.id === undefined || message.id === null) {
      this.notificationHandlers.get(message.method)?.(message.params);
      return;
    }
    void this.answer(message.id, message.method, message.params);
  }

  private settle(message: Message): void {
    const pending = typeof message.id === "number" ? this.pending.get(message.id) : undefined;
    if (!pending) return;
    this.pending.delete(message.id as number);
    if (message.error) pending.reject(new Error(`${message.error.message} (code ${message.error.code})`));
    else pending.resolve(message.result ?? null);
  }

  private async answer(id: number | string, method: string, params: unknown): Promise<void> {
    const handler = this.requestHandlers.get(method);
    if (!handler) {
      this.send({ id, error: { code: METHOD_NOT_FOUND, message: `Method not handled: ${method}` } });
      return;
    }
    try {
      this.send({ id, result: (await handler(params)) ?? null });
    } catch (error) {
      this.send({ id, error: { code: -32603, message: errorMessage(error) } });
    }
  }
}
