import { z } from "zod";
import { configPaths } from "../../../state/paths.js";
import { defineTool, type ToolContext, ToolError } from "../../kit/define-tool.js";
import { CRONTAB_APPROVAL, readCrontab } from "../crontab/crontab-program.js";
import { deliveryLines, plannedDelivery } from "../crontab/delivery.js";
import {
  comesRoundBefore,
  type OneShotJob,
  readJobRecord,
  removeOneShots,
  scheduleOneShots,
  scheduleUnderFreeId,
} from "../crontab/one-shot-jobs.js";
import { CRON_ID, taggedLines } from "../crontab/tagged-lines.js";
import { profilePushTarget } from "../ntfy/push-target.js";
import { formatClock, formatDay, requireWhen } from "../when.js";

const alarmsDir = (context: ToolContext) => configPaths(context.home).alarms;

/** Labels become crontab tags and file names: spaces to "_", anything else unsafe dropped. */
function alarmLabel(label: string): string {
  const cleaned = label
    .trim()
    .replace(/\s+/g, "_")
    .replace(/[^A-Za-z0-9_-]/g, "");
  if (CRON_ID.test(cleaned)) return cleaned;
  throw new ToolError(`'${label}' cannot be an alarm label: use letters, digits, '-' or '_' (at most 64).`);
}

/** The alarm's moment, to the minute, checked to be one cron can fire once. */
async function alarmTime(text: string, now: Date): Promise<Date> {
  const { date, hasTime } = await requireWhen(text, now, "the alarm time");
  if (!hasTime) throw new ToolError(`'${text}' has no time of day. Say when, e.g. "tomorrow 7am".`);
  date.setSeconds(0, 0);
  if (date <= now) throw new ToolError(`${formatDay(date)} ${formatClock(date)} is in the past. Give a later time.`);
  if (comesRoundBefore(date, now)) {
    throw new ToolError("Alarms can be set up to a year ahead; for later dates add a calendar event.");
  }
  return date;
}

/**
 * Installs the alarm under its label, replacing an alarm of that label; one set without a label gets
 * a label of its own from its time ("alarm-0730", "alarm-0730-2"), so it replaces none. Returns the label.
 */
async function scheduleAlarm(context: ToolContext, job: Omit<OneShotJob, "id" | "title">, label: string) {
  if (!label.trim()) {
    const id = `alarm-${formatClock(job.at).replace(":", "")}`;
    return scheduleUnderFreeId(context.env, alarmsDir(context), { ...job, title: "Alarm" }, id);
  }
  const id = alarmLabel(label);
  await scheduleOneShots(context.env, alarmsDir(context), [{ ...job, id, title: `Alarm: ${id}` }]);
  return id;
}

export const alarmTools = [
  defineTool({
    name: "set_alarm",
    description:
      'Set a one-time alarm through the user\'s crontab, e.g. time "07:30", "tomorrow 7am", "in 20 minutes". At ' +
      "that time it shows a desktop notification and pushes to the user's own ntfy topic, where those can show " +
      "(the answer says which will); then the alarm removes itself. Setting a label again replaces that alarm.",
    parameters: z.object({
      time: z.string().min(1),
      message: z.string().min(1),
      label: z
        .string()
        .default("")
        .describe("short name, used to cancel it; without one the alarm gets a new label from its time"),
    }),
    effect: "write",
    approval: CRONTAB_APPROVAL,
    handler: async ({ time, message, label }, context) => {
      const at = await alarmTime(time, new Date());
      const push = await profilePushTarget(context);
      const id = await scheduleAlarm(context, { kind: "alarm", at, message, push, pushTag: "alarm_clock" }, label);
      const delivery = await plannedDelivery(context.env, push);
      const when = `${formatDay(at)} ${formatClock(at)}`;
      return [
        `Alarm '${id}' set for ${when}: "${message}". It removes itself once it has fired.`,
        ...deliveryLines(delivery, "it"),
      ].join("\n");
    },
  }),
  defineTool({
    name: "list_alarms",
    description: "List the alarms Marvin has set in the crontab.",
    parameters: z.object({}),
    effect: "read",
    handler: async (_args, context) => {
      const lines = taggedLines(await readCrontab(context.env), "alarm");
      if (lines.length === 0) return "No alarms set.";
      const items = await Promise.all(
        lines.map(async ({ id, line }, index) => {
          const record = await readJobRecord(alarmsDir(context), "alarm", id);
          if (!record) return `${index + 1}. ${id} — crontab schedule ${line.split(" ").slice(0, 5).join(" ")}`;
          const at = new Date(record.at);
          return `${index + 1}. ${id} — ${formatDay(at)} ${formatClock(at)}: ${record.message}`;
        }),
      );
      return [`Alarms (${lines.length}):`, ...items].join("\n");
    },
  }),
  defineTool({
    name: "cancel_alarm",
    description: "Cancel an alarm by its label (see list_alarms).",
    parameters: z.object({ label: z.string().min(1) }),
    effect: "write",
    approval: CRONTAB_APPROVAL,
    handler: async ({ label }, context) => {
      const id = alarmLabel(label);
      const removed = await removeOneShots(context.env, alarmsDir(context), "alarm", (candidate) => candidate === id);
      if (removed.length === 0) {
        const labels = taggedLines(await readCrontab(context.env), "alarm").map((line) => line.id);
        const known = labels.length ? `Alarms: ${labels.join(", ")}.` : "There are no alarms.";
        throw new ToolError(`No alarm is labelled '${id}'. ${known}`);
      }
      return `Alarm '${id}' cancelled.`;
    },
  }),
];
