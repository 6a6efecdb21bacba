import type { Env } from "../../../shared/env.js";
import { errorMessage } from "../../../shared/error-message.js";
import type { NtfyEvent } from "./client.js";
import { loadSubscriptions, type NtfySubscription, updateSubscriptions } from "./subscriptions.js";

/** Notifications shown per topic and poll at most; older ones are counted. */
const SHOWN_PER_TOPIC = 10;
/** A topic never polled and without a subscription time is asked for the last hour, as the original did. */
const FIRST_POLL_WINDOW = "1h";

interface PollOutcome {
  /** One line per new notification, oldest first. */
  notifications: string[];
  /** Topics that could not be polled, with the reason. */
  problems: string[];
  /** A warning about the subscriptions file, when it was unusable. */
  warning?: string;
}

function sinceOf(subscription: NtfySubscription): string {
  if (subscription.last_id) return subscription.last_id;
  if (typeof subscription.since === "number") return String(subscription.since);
  return FIRST_POLL_WINDOW;
}

/** Not shown before: a server that no longer knows `since` sends its whole cache again. */
function isNew(event: NtfyEvent, subscription: NtfySubscription): boolean {
  const { last_id: lastId, last_time: lastTime } = subscription;
  if (event.id === lastId) return false;
  return lastTime === undefined || event.time >= lastTime;
}

function clock(unixSeconds: number): string {
  const date = new Date(unixSeconds * 1000);
  return `${String(date.getHours()).padStart(2, "0")}:${String(date.getMinutes()).padStart(2, "0")}`;
}

function describe(event: NtfyEvent, label: string): string {
  const title = event.title ? `${event.title} — ` : "";
  return `[${clock(event.time)}] ntfy '${label}': ${title}${event.message ?? ""}`;
}

interface TopicResult {
  topic: string;
  events: NtfyEvent[];
}

/**
 * Asks every subscribed topic for what arrived since the last poll, remembers the newest
 * notification of each, and returns the new ones. A topic that fails is a problem, never a throw.
 */
export async function pollSubscriptions(path: string, env: Env, signal: AbortSignal): Promise<PollOutcome> {
  const loaded = await loadSubscriptions(path);
  const topics = Object.entries(loaded.value);
  if (topics.length === 0) return { notifications: [], problems: [], warning: loaded.warning };
  // Every message of every run polls: the HTTP client (node:http, https, dns, zlib) loads only when there are topics.
  const [{ ServiceError }, { ntfyClient, poll }, { ntfyBaseUrl }] = await Promise.all([
    import("../../kit/http/index.js"),
    import("./client.js"),
    import("./service.js"),
  ]);
  const client = ntfyClient(env, signal);
  const problems: string[] = [];
  const results: TopicResult[] = [];
  await Promise.all(
    topics.map(async ([topic, subscription]) => {
      try {
        const events = (await poll(client, topic, sinceOf(subscription))).filter((event) => isNew(event, subscription));
        if (events.length) results.push({ topic, events });
      } catch (error) {
        // Whichever ran out first, the caller's short wait or the client's own time limit, it is the same problem.
        const late = signal.aborted || (error instanceof ServiceError && error.kind === "timeout");
        const reason = late ? `no answer from ${ntfyBaseUrl(env)} in time` : errorMessage(error);
        problems.push(`Could not check ntfy topic '${subscription.label}': ${reason}`);
      }
    }),
  );
  const notifications: string[] = [];
  for (const { topic, events } of results) {
    const label = loaded.value[topic]!.label;
    const hidden = events.length - SHOWN_PER_TOPIC;
    if (hidden > 0) notifications.push(`ntfy '${label}': ${hidden} older notifications not shown`);
    notifications.push(...events.slice(-SHOWN_PER_TOPIC).map((event) => describe(event, label)));
  }
  if (results.length) await rememberNewest(path, results);
  return { notifications, problems, warning: loaded.warning };
}

async function rememberNewest(path: string, results: readonly TopicResult[]): Promise<void> {
  await updateSubscriptions(path, (subscriptions) => {
    for (const { topic, events } of results) {
      const entry = subscriptions[topic];
      const newest = events.at(-1)!;
      if (entry) Object.assign(entry, { last_id: newest.id, last_time: newest.time });
    }
  });
}
