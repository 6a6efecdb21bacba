import type { ServerResponse } from "node:http";

/*
 * What the scripted servers of the native provider APIs share: named server-sent events, written in small slices
 * that cut events and lines anywhere, as a network does.
 */

/** One server-sent event, as its `type` field and data. */
export type WireEvent = { type: string } & Record<string, unknown>;

export function pieces(text: string, size: number): string[] {
  const result: string[] = [];
  for (let at = 0; at < text.length; at += size) result.push(text.slice(at, at + size));
  return result;
}

/** The bytes of `events`, each named by its type (`event: <type>`) as both Anthropic and OpenAI send them. */
export function sse(events: WireEvent[]): string {
  return events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join("");
}

export async function writeSlowly(response: ServerResponse, text: string): Promise<void> {
  for (const slice of pieces(text, 37)) {
    response.write(slice);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** How a scripted stream ends: the body ends, the connection drops, or the server goes silent until hung up on. */
export type Ending = "end" | "drop" | "silence";

/** Writes `events` as a 200 event stream, then ends it as asked. */
export async function streamEventsTo(response: ServerResponse, events: WireEvent[], ending: Ending = "end") {
  response.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" });
  await writeSlowly(response, sse(events));
  if (ending === "drop") response.socket?.destroy();
  else if (ending !== "silence") response.end();
}
