import { createHash } from "node:crypto";
import { errorMessage } from "../../../shared/error-message.js";
import { configPaths } from "../../../state/paths.js";
import type { ToolContext } from "../../kit/define-tool.js";
import { CrontabMissing } from "../crontab/crontab-program.js";
import { deliveryLines, plannedDelivery } from "../crontab/delivery.js";
import { comesRoundBefore, type OneShotJob, removeOneShots, scheduleOneShots } from "../crontab/one-shot-jobs.js";
import { profilePushTarget } from "../ntfy/push-target.js";
import { formatClock, formatDay } from "../when.js";

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
 * Crontab reminders 1 h and 30 min before the event (those still ahead); returns the lines for the
 * answer: when they fire and what will show, or why they could not be set (no crontab program,
 * say): the event stays. A reminder a year or more ahead comes round in the crontab every year
 * on its date; its script shows it, and removes it, only in the event's year.
 */
export async function scheduleReminders(context: ToolContext, event: ReminderEvent): Promise<string> {
  const now = new Date();
  const push = await profilePushTarget(context);
  const jobs: OneShotJob[] = REMINDER_OFFSETS.map((minutes) => ({
    kind: "reminder" as const,
    id: `${uidKey(event.uid)}-${minutes}`,
    at: new Date(event.start.getTime() - minutes * 60_000),
    title: `${event.title} ${ahead(minutes)}`,
    message: `${event.title} at ${formatClock(event.start)}${event.location ? `, ${event.location}` : ""}`,
    push,
    pushTag: "calendar",
  })).filter((job) => job.at > now);
  if (jobs.length === 0) return "No reminders: both reminder times have passed.";
  try {
    await scheduleOneShots(context.env, configPaths(context.home).alarms, jobs);
  } catch (error) {
    return `Reminders could not be scheduled: ${errorMessage(error)}`;
  }
  const times = `Reminders at ${jobs.map((job) => formatClock(job.at)).join(" and ")}.`;
  const days = [...new Set(jobs.map((job) => formatDay(job.at)))].join(" and ");
  const later = jobs.some((job) => comesRoundBefore(job.at, now))
    ? ` Cron has no year, so their crontab lines come round every year; they only show, and remove themselves, ` +
      `on ${days}.`
    : "";
  return [`${times}${later}`, ...deliveryLines(await plannedDelivery(context.env, push), "they")].join("\n");
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
