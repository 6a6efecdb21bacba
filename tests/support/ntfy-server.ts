import type { ServerResponse } from "node:http";
import type { LocalHttpServer, LocalHttpServers, SeenRequest } from "./local-http-server.js";

/** A message as ntfy keeps and sends it (docs.ntfy.sh, "JSON message format"). */
export interface NtfyMessage {
  id: string;
  time: number;
  expires: number;
  event: "message";
  topic: string;
  message: string;
  title?: string;
  tags?: string[];
  priority?: number;
}

export interface NtfyServer extends LocalHttpServer {
  /** Messages per topic, oldest first, as the server's cache holds them. */
  messages: Map<string, NtfyMessage[]>;
  /** Publishes as a phone or `curl -d` would, bypassing HTTP. */
  add(topic: string, message: string, extra?: Partial<NtfyMessage>): NtfyMessage;
}

let counter = 0;
/** ntfy ids: 12 random-looking alphanumerics. */
const nextId = () => `m${(++counter).toString(36).padStart(4, "0")}Qx7KzP2`.slice(0, 12);

/** `since` as ntfy reads it: "all", a duration (10m, 1h), a unix time, or a message id. */
function after(messages: NtfyMessage[], since: string | null): NtfyMessage[] {
  if (!since || since === "all") return messages;
  const duration = /^(\d+)([smhd])$/.exec(since);
  if (duration) {
    const unit = { s: 1, m: 60, h: 3600, d: 86400 }[duration[2] as "s" | "m" | "h" | "d"];
    const from = Math.floor(Date.now() / 1000) - Number(duration[1]) * unit;
    return messages.filter((message) => message.time >= from);
  }
  if (/^\d+$/.test(since)) return messages.filter((message) => message.time >= Number(since));
  const index = messages.findIndex((message) => message.id === since);
  return index < 0 ? messages : messages.slice(index + 1);
}

/**
 * A local server speaking ntfy's publish (POST /<topic>, headers Title/Tags/Priority; or JSON
 * publishing, POST / with topic, message, title, tags and priority in a JSON body; a JSON
 * answer) and poll (GET /<topic>/json?poll=1&since=…, one JSON object per line) formats.
 */
export async function startNtfyServer(servers: LocalHttpServers): Promise<NtfyServer> {
  const messages = new Map<string, NtfyMessage[]>();
  const add = (topic: string, message: string, extra: Partial<NtfyMessage> = {}): NtfyMessage => {
    const time = Math.floor(Date.now() / 1000);
    const record: NtfyMessage = {
      id: nextId(),
      time,
      expires: time + 43200,
      event: "message",
      topic,
      message,
      ...extra,
    };
    messages.set(topic, [...(messages.get(topic) ?? []), record]);
    return record;
  };
  const published = (response: ServerResponse, record: NtfyMessage) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(`${JSON.stringify(record)}\n`);
  };
  const handle = (request: SeenRequest, response: ServerResponse) => {
    const url = new URL(request.url, "http://ntfy.local");
    const [topic, format] = url.pathname.slice(1).split("/");
    if (request.method === "POST" && url.pathname === "/") {
      const { topic: to, message, title, tags, priority } = JSON.parse(request.body) as Partial<NtfyMessage>;
      return published(response, add(to!, message ?? "triggered", { title, tags, priority }));
    }
    if (request.method === "POST" && topic && !format) {
      const header = (name: string) => request.headers[name] as string | undefined;
      const record = add(topic, request.body, {
        ...(header("title") ? { title: header("title") } : {}),
        ...(header("tags") ? { tags: header("tags")!.split(",") } : {}),
        ...(header("priority") ? { priority: Number(header("priority")) } : {}),
      });
      return published(response, record);
    }
    if (request.method === "GET" && topic && format === "json" && url.searchParams.get("poll") === "1") {
      const found = after(messages.get(topic) ?? [], url.searchParams.get("since"));
      response.writeHead(200, { "content-type": "application/x-ndjson; charset=utf-8" });
      response.end(found.map((message) => `${JSON.stringify(message)}\n`).join(""));
      return;
    }
    response.writeHead(404, { "content-type": "application/json" });
    response.end('{"code":40401,"http":404,"error":"page not found","link":"https://ntfy.sh/docs"}\n');
  };
  const server = await servers.start(handle);
  return Object.assign(server, { messages, add });
}
