import { z } from "zod";
import { singleLine } from "../../../shared/control-characters.js";
import { defineTool, type ToolContext } from "../../kit/define-tool.js";
import { joinUrl } from "../../kit/http/index.js";
import { ntfyClient, publish } from "./client.js";
import { pollSubscriptions } from "./poller.js";
import { checkedTopic, ntfyBaseUrl } from "./service.js";
import { alarmPushTopic, loadSubscriptions, type NtfySubscription, updateSubscriptions } from "./subscriptions.js";
import { unguessableTopic } from "./topic-name.js";

const subscriptionsFile = (context: ToolContext) => context.profiles.paths(context.profileName).ntfySubscriptions;

/**
 * Adds (or relabels) a subscription; `own` makes it the topic alarms and reminders are pushed to.
 * Returns its URL, how many there are now, and the push topic it replaced.
 */
async function subscribe(context: ToolContext, topic: string, label: string, own: boolean) {
  const url = joinUrl(ntfyBaseUrl(context.env), topic);
  const since = Math.floor(Date.now() / 1000);
  const { result } = await updateSubscriptions(subscriptionsFile(context), (subscriptions) => {
    const previous = alarmPushTopic(subscriptions);
    if (own) for (const entry of Object.values(subscriptions)) delete entry.push_alarms;
    const entry: NtfySubscription = { since, ...subscriptions[topic], label: label || topic, url };
    if (own) entry.push_alarms = true;
    subscriptions[topic] = entry;
    return { count: Object.keys(subscriptions).length, replaced: own && previous !== topic ? previous : undefined };
  });
  return { url, ...result };
}

/** The answer's sentence about a topic that now gets the pushes of alarms and reminders. */
function pushSentence(it: string, replaced: string | undefined): string {
  const instead = replaced ? ` (instead of '${replaced}')` : "";
  return `Alarms and calendar reminders are pushed to ${it} from now on${instead}.`;
}

const TOPIC = z.string().describe("ntfy topic name (letters, digits, - and _)");

export const ntfyTools = [
  defineTool({
    name: "generate_ntfy_topic",
    description:
      "Create a new, unguessable ntfy topic for push notifications and subscribe to it. Returns the topic and the " +
      "URL to subscribe to in the ntfy phone app or browser. It becomes the user's own topic: alarms and calendar " +
      "reminders are pushed to it from then on.",
    parameters: z.object({ label: z.string().default("").describe("friendly name, e.g. 'dinner alerts'") }),
    effect: "write",
    handler: async ({ label }, context) => {
      const topic = unguessableTopic();
      const { url, replaced } = await subscribe(context, topic, label.trim(), true);
      return [
        `New ntfy topic, subscribed${label.trim() ? ` as '${label.trim()}'` : ""}:`,
        `Topic: ${topic}`,
        `URL: ${url}`,
        `Subscribe to it in the ntfy app, or send to it: curl -d 'Hello' ${url}`,
        "Only people who know the topic can read or send; keep it private.",
        pushSentence("this topic", replaced),
      ].join("\n");
    },
  }),
  defineTool({
    name: "ntfy_subscribe",
    description: "Subscribe to an ntfy topic: new notifications on it are shown with each message the user sends.",
    parameters: z.object({
      topic: TOPIC,
      label: z.string().default(""),
      own: z
        .boolean()
        .default(false)
        .describe("true only when the user says it is their own topic: alarms and calendar reminders are pushed to it"),
    }),
    effect: "write",
    handler: async ({ topic, label, own }, context) => {
      const name = checkedTopic(topic);
      const { url, count, replaced } = await subscribe(context, name, label.trim(), own);
      const labelled = label.trim() || name;
      const subscribed = `Subscribed to '${name}' (${url}), labelled '${labelled}'. ${count} subscription(s) now.`;
      return own ? `${subscribed} ${pushSentence("it", replaced)}` : subscribed;
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
        const pushed = subscriptions[name]?.push_alarms === true;
        delete subscriptions[name];
        return { known, pushed, left: Object.keys(subscriptions) };
      });
      if (!result.known) {
        const others = result.left.length ? ` Subscribed topics: ${result.left.join(", ")}.` : " There are none.";
        return `Not subscribed to '${name}'; nothing changed.${others}`;
      }
      const unsubscribed = `Unsubscribed from '${name}'. ${result.left.length} subscription(s) left.`;
      if (!result.pushed) return unsubscribed;
      return (
        `${unsubscribed} Alarms and reminders set from now on are not pushed (those set before still are); ` +
        "generate_ntfy_topic makes a new topic of the user's own."
      );
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
      const answer = `Sent to ntfy topic '${name}' on ${ntfyBaseUrl(context.env)} (message id ${sent.id}).`;
      const shownTitle = singleLine(title);
      if (shownTitle === title.trim()) return answer;
      return (
        `${answer} The title held line breaks or control characters, which a notification title cannot show, so ` +
        `it was sent as: '${shownTitle}'.`
      );
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
      const lines = topics.map(([topic, entry], index) => {
        const own = entry.push_alarms ? " (the user's own: alarms and reminders are pushed here)" : "";
        return `${index + 1}. ${entry.label} — topic ${topic}, ${entry.url}${own}`;
      });
      const outcome = await pollSubscriptions(file, context.env, context.signal);
      const news = outcome.notifications.length
        ? ["New notifications:", ...outcome.notifications]
        : ["No new notifications."];
      return [`ntfy subscriptions (${topics.length}):`, ...lines, "", ...news, ...outcome.problems].join("\n");
    },
  }),
];
