import { z } from "zod";
import type { Env } from "../../../shared/env.js";
import { createHttpClient, type HttpClient, ServiceError } from "../../kit/http/index.js";
import { type NtfyNote, publishBody } from "./json-publish.js";
import { NTFY, ntfyEnv } from "./service.js";

/** One event of ntfy's JSON format, as publishing answers it and the JSON stream sends it line by line. */
const ntfyEvent = z.object({
  id: z.string(),
  time: z.number(),
  event: z.string(),
  topic: z.string(),
  message: z.string().optional(),
  title: z.string().optional(),
  tags: z.array(z.string()).optional(),
  priority: z.number().optional(),
});

export type NtfyEvent = z.output<typeof ntfyEvent>;

export function ntfyClient(env: Env, signal: AbortSignal): HttpClient {
  return createHttpClient({ env: ntfyEnv(env), signal });
}

/** Publishes as JSON (POST to the server's root, see publishBody); resolves with ntfy's record of the message. */
export async function publish(client: HttpClient, topic: string, note: NtfyNote): Promise<NtfyEvent> {
  const response = await client.send({ service: NTFY, path: "/" }, { method: "POST", json: publishBody(topic, note) });
  return response.json(ntfyEvent);
}

function malformed(line: string): ServiceError {
  return new ServiceError(
    `ntfy answered the poll with something that is not its JSON stream ('${line.slice(0, 80)}'). Check that ` +
      `${NTFY.envVar} points at an ntfy server.`,
    { service: NTFY.name, kind: "bad-answer" },
  );
}

/** GET /<topic>/json?poll=1&since=…: the cached messages after `since` (a message id, unix time or duration). */
export async function poll(client: HttpClient, topic: string, since: string, timeoutMs?: number): Promise<NtfyEvent[]> {
  const text = await client.getText(NTFY, `/${topic}/json`, { poll: 1, since }, { timeoutMs });
  const events: NtfyEvent[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      throw malformed(line);
    }
    const parsed = ntfyEvent.safeParse(raw);
    if (!parsed.success) throw malformed(line);
    if (parsed.data.event === "message") events.push(parsed.data);
  }
  return events;
}
