import type { ToolContext } from "../../define-tool.js";
import { joinUrl } from "../../http/index.js";
import { ntfyBaseUrl } from "./service.js";
import { loadSubscriptions } from "./subscriptions.js";

/**
 * Where alarms and calendar reminders are pushed: the profile's first ntfy topic (the one
 * generate_ntfy_topic made, usually); undefined when the profile has none.
 */
export async function profilePushUrl(context: ToolContext): Promise<string | undefined> {
  const { value } = await loadSubscriptions(context.profiles.paths(context.profileName).ntfySubscriptions);
  const [topic] = Object.keys(value);
  return topic ? joinUrl(ntfyBaseUrl(context.env), topic) : undefined;
}
