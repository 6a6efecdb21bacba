import type { AgentEventListener, EventSink } from "../../agent/events.js";
import type { Env } from "../../shared/env.js";
import { errorMessage } from "../../shared/error-message.js";
import { preview } from "../../shared/truncate.js";
import type { NtfyNote } from "../../tools/organiser/ntfy/json-publish.js";

const PUBLISH_TIMEOUT_MS = 5_000;
const MESSAGE_CHARS = 300;
/** ntfy's priority for a failed request: "high", one above its default. */
const HIGH_PRIORITY = 4;

/** Publishes one message through the ntfy client the tools use (server: MARVIN_NTFY_URL or NTFY_URL). */
async function publishNtfy(topic: string, note: NtfyNote, env: Env): Promise<void> {
  // Loaded on the first message only: a run without --ntfy never needs the HTTP client.
  const { ntfyClient, publish } = await import("../../tools/organiser/ntfy/client.js");
  await publish(ntfyClient(env, AbortSignal.timeout(PUBLISH_TIMEOUT_MS)), topic, note);
}

/**
 * `--ntfy TOPIC`: a push notification each time an answer is finished, so a long run can be
 * left alone. Failures are reported through `warn` and never change the run's outcome.
 */
export function createNtfyNotifier(topic: string, env: Env, warn: (text: string) => void): EventSink {
  const pending = new Set<Promise<void>>();
  let lastError = "";
  const send = (note: NtfyNote) => {
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
        priority: HIGH_PRIORITY,
        tags: ["warning"],
      });
    lastError = "";
  };
  return { listener, flush: async () => void (await Promise.all(pending)) };
}
