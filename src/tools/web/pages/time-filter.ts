import { z } from "zod";
import type { TimeFilter } from "../../kit/duckduckgo/index.js";

const SPELLINGS: Record<string, TimeFilter | undefined> = {
  "": undefined,
  d: "d",
  day: "d",
  w: "w",
  week: "w",
  m: "m",
  month: "m",
  y: "y",
  year: "y",
};

/** The `time_filter` parameter of the search tools: DuckDuckGo's letters or the words, "" for any time. */
export const timeFilterParameter = z
  .enum(Object.keys(SPELLINGS) as [string, ...string[]])
  .default("")
  .describe('Only results from the past day, week, month or year ("d"/"w"/"m"/"y"); "" for any time')
  .transform((spelling) => SPELLINGS[spelling]);

const LABELS: Record<TimeFilter, string> = { d: "past day", w: "past week", m: "past month", y: "past year" };

/** " (past week)", or "" for any time. */
export function timeFilterLabel(filter: TimeFilter | undefined): string {
  return filter ? ` (${LABELS[filter]})` : "";
}

const SPAN_DAYS: Record<TimeFilter, number> = { d: 1, w: 7, m: 31, y: 366 };

/** The earliest moment a result may have, for services that take a start date. */
export function timeFilterStart(filter: TimeFilter | undefined, now: Date): Date | undefined {
  return filter ? new Date(now.getTime() - SPAN_DAYS[filter] * 24 * 3600_000) : undefined;
}
