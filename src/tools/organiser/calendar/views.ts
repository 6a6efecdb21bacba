import { formatClock, formatDay, MONTH_NAMES } from "../when.js";
import type { Occurrence } from "./occurrences.js";

const DAY_MS = 24 * 3600_000;

/** Days of `month` (0-11) that an occurrence covers, all or part of. */
export function markedDays(items: readonly Occurrence[], year: number, month: number): Set<number> {
  const days = new Set<number>();
  const monthStart = new Date(year, month, 1);
  const monthEnd = new Date(year, month + 1, 1);
  for (const item of items) {
    const lastMoment = new Date(Math.max(item.start.getTime(), item.end.getTime() - 1));
    let day = new Date(Math.max(item.start.getTime(), monthStart.getTime()));
    day = new Date(day.getFullYear(), day.getMonth(), day.getDate());
    for (; day <= lastMoment && day < monthEnd; day = new Date(day.getFullYear(), day.getMonth(), day.getDate() + 1)) {
      days.add(day.getDate());
    }
  }
  return days;
}

/** A month as a grid of weeks, Monday first; days with events carry a "*". */
export function monthGrid(year: number, month: number, marked: ReadonlySet<number>): string {
  const daysInMonth = new Date(year, month + 1, 0).getDate();
  const leading = (new Date(year, month, 1).getDay() + 6) % 7;
  const cells: string[] = Array.from({ length: leading }, () => "    ");
  for (let day = 1; day <= daysInMonth; day++) cells.push(`${String(day).padStart(3)}${marked.has(day) ? "*" : " "}`);
  const weeks: string[] = [];
  for (let index = 0; index < cells.length; index += 7)
    weeks.push(
      cells
        .slice(index, index + 7)
        .join("")
        .trimEnd(),
    );
  return [`${MONTH_NAMES[month]} ${year}`, "  Mo  Tu  We  Th  Fr  Sa  Su", ...weeks].join("\n");
}

function when(item: Occurrence): string {
  if (item.allDay) {
    const lastDay = new Date(item.end.getTime() - DAY_MS);
    const days = Math.round((item.end.getTime() - item.start.getTime()) / DAY_MS);
    return days > 1
      ? `${formatDay(item.start)} to ${formatDay(lastDay)}, all day`
      : `${formatDay(item.start)}, all day`;
  }
  const sameDay = item.start.toDateString() === item.end.toDateString();
  const end = sameDay ? formatClock(item.end) : `${formatDay(item.end)} ${formatClock(item.end)}`;
  const span = item.end > item.start ? `${formatClock(item.start)}–${end}` : formatClock(item.start);
  return `${formatDay(item.start)} ${span}${item.zoneNote ? ` (${item.zoneNote})` : ""}`;
}

const DESCRIPTION_CHARS = 160;

/** Numbered lines for a model: when, what, where, uid; the description shortened on a second line. */
export function occurrenceList(items: readonly Occurrence[]): string {
  return items
    .map((item, index) => {
      const location = item.location.replace(/\s*\n\s*/g, ", ").trim();
      const where = location ? ` @ ${location}` : "";
      const repeats = item.recurring ? ", repeats" : "";
      const lines = [`${index + 1}. ${when(item)} — ${item.title}${where} (uid ${item.uid}${repeats})`];
      const description = item.description.replace(/\s+/g, " ").trim();
      if (description) {
        const cut =
          description.length > DESCRIPTION_CHARS ? `${description.slice(0, DESCRIPTION_CHARS)}…` : description;
        lines.push(`   ${cut}`);
      }
      return lines.join("\n");
    })
    .join("\n");
}
