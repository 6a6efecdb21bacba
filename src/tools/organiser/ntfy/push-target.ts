import type { ToolContext } from "../../kit/define-tool.js";
import { joinUrl } from "../../kit/http/index.js";
import { ntfyBaseUrl } from "./service.js";
import { alarmPushTopic, loadSubscriptions } from "./subscriptions.js";

/** Where an alarm or reminder is pushed. */
export interface PushTarget {
  topic: string;
  /** The topic's address, where the user reads it. */
  url: string;
  /** The server's root, where JSON publishing posts. */
  server: string;
}

/**
 * The user's own ntfy topic (made by generate_ntfy_topic, or subscribed with own=true), never a
 * topic subscribed from someone else; undefined when the profile has none.
 */
export async function profilePushTarget(context: ToolContext): Promise<PushTarget | undefined> {
  const { value } = await loadSubscriptions(context.profiles.paths(context.profileName).ntfySubscriptions);
  const topic = alarmPushTopic(value);
  if (!topic) return undefined;
  const base = ntfyBaseUrl(context.env);
  return { topic, url: joinUrl(base, topic), server: joinUrl(base, "/") };
}
