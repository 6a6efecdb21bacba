import { z } from "zod";
import { defineTool, type ToolContext } from "../../define-tool.js";
import { joinUrl } from "../../http/index.js";
import { ntfyClient, publish } from "./client.js";
import { pollSubscriptions } from "./poller.js";
import { checkedTopic, ntfyBaseUrl } from "./service.js";
import { loadSubscriptions, updateSubscriptions } from "./subscriptions.js";
import { unguessableTopic } from "./topic-name.js";

const subscriptionsFile = (context: ToolContext) => context.profiles.paths(context.profileName).ntfySubscriptions;

/** Adds (or relabels) a subscription; returns its URL and how many there are now. */
async function subscribe(context: ToolContext, topic: string, label: string) {
  const url = joinUrl(ntfyBaseUrl(context.env), topic);
  const since = Math.floor(Date.now() / 1000);
  const { result: count } = await updateSubscriptions(subscriptionsFile(context), (subscriptions) => {
    subscriptions[topic] = { since, ...subscriptions[topic], label: label || topic, url };
    return Object.keys(subscriptions).length;
  });
  return { url, count };
}

const TOPIC = z.string().describe("ntfy topic name (letters, digits, - and _)");

export const ntfyTools = [
  defineTool({
    name: "generate_ntfy_topic",
    description:
      "Create a new, unguessable ntfy topic for push notifications and subscribe to it. Returns the topic and the " +
      "URL to subscribe to in the ntfy phone app or browser. Alarms and calendar reminders are pushed to it too.",
    parameters: z.object({ label: z.string().default("").describe("friendly name, e.g. 'dinner alerts'") }),
    effect: "write",
    handler: async ({ label }, context) => {
      const topic = unguessableTopic();
      const { url } = await subscribe(context, topic, label.trim());
      return [
        `New ntfy topic, subscribed${label.trim() ? ` as '${label.trim()}'` : ""}:`,
        `Topic: ${topic}`,
        `URL: ${url}`,
        `Subscribe to it in the ntfy app, or send to it: curl -d 'Hello' ${url}`,
        "Only people who know the topic can read or send; keep it private.",
      ].join("\n");
    },
  }),
  defineTool({
    name: "ntfy_subscribe",
    description: "Subscribe to an ntfy topic: new notifications on it are shown with each message the user sends.",
    parameters: z.object({ topic: TOPIC, label: z.string().default("") }),
    effect: "write",
    handler: async ({ topic, label }, context) => {
      const name = checkedTopic(topic);
      const { url, count } = await subscribe(context, name, label.trim());
      return `Subscribed to '${name}' (${url}), labelled '${label.trim() || name}'. ${count} subscription(s) now.`;
    },
  }),
  defineTool({
    name: "ntfy_unsubscribe",
    description: "Stop following an ntfy topic.",
    parameters: z.object({ topic: TOPIC }),
    effect: "write",
    handler: async ({ topic }, context) => {
      const name = topic.trim();
      const { result } = await updateSubscriptions(subscriptionsFile(context), (subscriptions) => {
        const known = name in subscriptions;
        delete subscriptions[name];
        return { known, left: Object.keys(subscriptions) };
      });
      if (!result.known) {
        const others = result.left.length ? ` Subscribed topics: ${result.left.join(", ")}.` : " There are none.";
        return `Not subscribed to '${name}'; nothing changed.${others}`;
      }
      return `Unsubscribed from '${name}'. ${result.left.length} subscription(s) left.`;
    },
  }),
  defineTool({
    name: "ntfy_publish",
    description: "Send a push notification to an ntfy topic (e.g. to the user's phone).",
    parameters: z.object({ topic: TOPIC, message: z.string().min(1), title: z.string().default("") }),
    effect: "write",
    timeoutMs: 30_000,
    handler: async ({ topic, message, title }, context) => {
      const name = checkedTopic(topic);
      const sent = await publish(ntfyClient(context.env, context.signal), name, { message, title });
      return `Sent to ntfy topic '${name}' on ${ntfyBaseUrl(context.env)} (message id ${sent.id}).`;
    },
  }),
  defineTool({
    name: "ntfy_list",
    description: "List the ntfy subscriptions and check them for notifications not shown yet.",
    parameters: z.object({}),
    effect: "write",
    timeoutMs: 30_000,
    handler: async (_args, context) => {
      const file = subscriptionsFile(context);
      const { value: subscriptions } = await loadSubscriptions(file);
      const topics = Object.entries(subscriptions);
      if (topics.length === 0) return "No ntfy subscriptions. generate_ntfy_topic creates one.";
      const lines = topics.map(
        ([topic, entry], index) => `${index + 1}. ${entry.label} — topic ${topic}, ${entry.url}`,
      );
      const outcome = await pollSubscriptions(file, context.env, context.signal);
      const news = outcome.notifications.length
        ? ["New notifications:", ...outcome.notifications]
        : ["No new notifications."];
      return [`ntfy subscriptions (${topics.length}):`, ...lines, "", ...news, ...outcome.problems].join("\n");
    },
  }),
];
