import type { AgentEventListener, EventSink } from "../../agent/events.js";
import type { Env } from "../../shared/env.js";
import { errorMessage } from "../../shared/error-message.js";
import { preview } from "../../shared/truncate.js";
import { ntfyBaseUrl } from "../../tools/organiser/ntfy/service.js";

const PUBLISH_TIMEOUT_MS = 5_000;
const MESSAGE_CHARS = 300;

interface NtfyMessage {
  title: string;
  message: string;
  priority?: "default" | "high";
  tags?: string[];
}

/** Publishes one message to an ntfy topic (server: MARVIN_NTFY_URL or NTFY_URL); throws with a readable reason. */
async function publishNtfy(topic: string, note: NtfyMessage, env: Env): Promise<void> {
  const base = ntfyBaseUrl(env);
  const headers: Record<string, string> = { Title: note.title, Priority: note.priority ?? "default" };
  if (note.tags?.length) headers.Tags = note.tags.join(",");
  let response: Response;
  try {
    response = await fetch(`${base}/${encodeURIComponent(topic)}`, {
      method: "POST",
      body: note.message,
      headers,
      signal: AbortSignal.timeout(PUBLISH_TIMEOUT_MS),
    });
  } catch (error) {
    const cause = errorMessage(error instanceof Error && error.cause instanceof Error ? error.cause : error);
    throw new Error(`cannot reach ${base} (${cause})`);
  }
  if (!response.ok)
    throw new Error(`${base} answered HTTP ${response.status}: ${preview((await response.text()).trim(), 200)}`);
}

/**
 * `--ntfy TOPIC`: a push notification each time an answer is finished, so a long run can be
 * left alone. Failures are reported through `warn` and never change the run's outcome.
 */
export function createNtfyNotifier(topic: string, env: Env, warn: (text: string) => void): EventSink {
  const pending = new Set<Promise<void>>();
  let lastError = "";
  const send = (note: NtfyMessage) => {
    const delivery = publishNtfy(topic, note, env)
      .catch((error: unknown) => warn(`Could not notify ntfy topic '${topic}': ${errorMessage(error)}`))
      .finally(() => pending.delete(delivery));
    pending.add(delivery);
  };
  const listener: AgentEventListener = (event) => {
    if (event.type === "error") lastError = event.message;
    if (event.type !== "agent_end") return;
    if (event.reason === "done")
      send({
        title: "Marvin: answer ready",
        message: preview(event.text.trim(), MESSAGE_CHARS) || "(no text)",
        tags: ["white_check_mark"],
      });
    else if (event.reason === "error")
      send({
        title: "Marvin: request failed",
        message: preview(lastError, MESSAGE_CHARS),
        priority: "high",
        tags: ["warning"],
      });
    lastError = "";
  };
  return { listener, flush: async () => void (await Promise.all(pending)) };
}
