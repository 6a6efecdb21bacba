import { type Loaded, loadJsonFile, writeJsonAtomic } from "../../../state/atomic-file.js";
import { withFileLock } from "../../../state/file-lock.js";

/**
 * One entry of ntfy_subscriptions.json, keyed by topic as the original Marvin writes it
 * (`{"<topic>": {"label": …, "url": …}}`). Marvin adds when it subscribed and what it has shown.
 */
export interface NtfySubscription {
  label: string;
  url: string;
  /** Unix seconds of subscribing: the first poll asks for what arrived since then. */
  since?: number;
  /** Id and unix time of the newest notification already shown. */
  last_id?: string;
  last_time?: number;
  /** The user's own topic, where alarms and calendar reminders are pushed; one entry at most has it. */
  push_alarms?: boolean;
  [other: string]: unknown;
}

type NtfySubscriptions = Record<string, NtfySubscription>;

/** The topic alarms and calendar reminders are pushed to; undefined when none is the user's own. */
export function alarmPushTopic(subscriptions: NtfySubscriptions): string | undefined {
  return Object.keys(subscriptions).find((topic) => subscriptions[topic]!.push_alarms === true);
}

function parse(raw: unknown): NtfySubscriptions | undefined {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return undefined;
  const entries = Object.entries(raw as Record<string, unknown>);
  if (!entries.every(([, entry]) => typeof entry === "object" && entry !== null && !Array.isArray(entry))) {
    return undefined;
  }
  return Object.fromEntries(
    entries.map(([topic, entry]) => {
      const fields = entry as Record<string, unknown>;
      const label = typeof fields.label === "string" && fields.label ? fields.label : topic;
      return [topic, { ...fields, label, url: typeof fields.url === "string" ? fields.url : "" }];
    }),
  );
}

export function loadSubscriptions(path: string): Promise<Loaded<NtfySubscriptions>> {
  return loadJsonFile(path, parse, () => ({}));
}

/** Reads, changes and writes the file under its lock, so a poll and a tool call never lose each other's change. */
export function updateSubscriptions<T>(
  path: string,
  change: (subscriptions: NtfySubscriptions) => T,
): Promise<{ result: T; warning?: string }> {
  return withFileLock(path, async () => {
    const loaded = await loadSubscriptions(path);
    const result = change(loaded.value);
    await writeJsonAtomic(path, loaded.value);
    return { result, warning: loaded.warning };
  });
}
