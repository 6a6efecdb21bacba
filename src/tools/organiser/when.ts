import { ToolError } from "../kit/define-tool.js";

interface ParsedWhen {
  date: Date;
  /** False for a day without a time of day ("tomorrow", "2026-03-01"). */
  hasTime: boolean;
}

/**
 * A time as people write it — "07:30", "tomorrow 7am", "in 20 minutes", "2026-03-01 14:00",
 * "next friday 18:00" — in local time, the next such moment after `reference` when the day is
 * left open. chrono-node is loaded on first use: most sessions never parse a time.
 */
async function parseWhen(text: string, reference: Date): Promise<ParsedWhen | undefined> {
  const chrono = await import("chrono-node/en");
  const [result] = chrono.casual.parse(text.trim(), reference, { forwardDate: true });
  if (!result) return undefined;
  return { date: result.start.date(), hasTime: result.start.isCertain("hour") };
}

/** Like parseWhen, but a text it cannot read is an error naming the examples that work. */
export async function requireWhen(text: string, reference: Date, what: string): Promise<ParsedWhen> {
  const parsed = await parseWhen(text, reference);
  if (parsed) return parsed;
  throw new ToolError(
    `Could not read ${what} '${text}'. Write it like "07:30", "tomorrow 7am", "in 20 minutes" or "2026-03-01 14:00".`,
  );
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
export const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

const two = (value: number) => String(value).padStart(2, "0");

/** "Wed 25 Nov 2026", local time. */
export function formatDay(date: Date): string {
  return `${WEEKDAYS[date.getDay()]} ${date.getDate()} ${MONTHS[date.getMonth()]} ${date.getFullYear()}`;
}

/** "07:30", local time. */
export function formatClock(date: Date): string {
  return `${two(date.getHours())}:${two(date.getMinutes())}`;
}
