import { createHash } from "node:crypto";
import { errorMessage } from "../../../shared/error-message.js";
import { configPaths } from "../../../state/paths.js";
import type { ToolContext } from "../../define-tool.js";
import { CrontabMissing } from "../crontab/crontab-program.js";
import { type OneShotJob, removeOneShots, scheduleOneShots } from "../crontab/one-shot-jobs.js";
import { profilePushUrl } from "../ntfy/push-target.js";
import { formatClock } from "../when.js";

/** Minutes before an event that a reminder fires. */
const REMINDER_OFFSETS = [60, 30];

/** Crontab ids of an event's reminders: a hash of the UID (UIDs hold "@", "." and worse), then the offset. */
const uidKey = (uid: string) => createHash("sha256").update(uid).digest("hex").slice(0, 16);

interface ReminderEvent {
  uid: string;
  title: string;
  location: string;
  start: Date;
}

const ahead = (minutes: number) => (minutes === 60 ? "in 1 hour" : `in ${minutes} minutes`);

/**
 * Crontab reminders 1 h and 30 min before the event (those still ahead); returns the line for the
 * answer, which says why when they could not be set (no crontab program, say): the event stays.
 */
export async function scheduleReminders(context: ToolContext, event: ReminderEvent): Promise<string> {
  const now = Date.now();
  const pushUrl = await profilePushUrl(context);
  const jobs: OneShotJob[] = REMINDER_OFFSETS.map((minutes) => ({
    kind: "reminder" as const,
    id: `${uidKey(event.uid)}-${minutes}`,
    at: new Date(event.start.getTime() - minutes * 60_000),
    title: `${event.title} ${ahead(minutes)}`,
    message: `${event.title} at ${formatClock(event.start)}${event.location ? `, ${event.location}` : ""}`,
    pushUrl,
    pushTag: "calendar",
  })).filter((job) => job.at.getTime() > now);
  if (jobs.length === 0) return "No reminders: both reminder times have passed.";
  try {
    await scheduleOneShots(context.env, configPaths(context.home).alarms, jobs);
  } catch (error) {
    return `Reminders could not be scheduled: ${errorMessage(error)}`;
  }
  const times = jobs.map((job) => formatClock(job.at)).join(" and ");
  return `Reminders at ${times} (desktop notification${pushUrl ? ` and push to ${pushUrl}` : ""}).`;
}

/** Removes the event's reminders from the crontab; returns a line for the answer when that failed. */
export async function removeReminders(context: ToolContext, uid: string): Promise<string | undefined> {
  const prefix = `${uidKey(uid)}-`;
  try {
    await removeOneShots(context.env, configPaths(context.home).alarms, "reminder", (id) => id.startsWith(prefix));
    return undefined;
  } catch (error) {
    if (error instanceof CrontabMissing) return undefined;
    return `Its reminders could not be removed from the crontab: ${errorMessage(error)}`;
  }
}
