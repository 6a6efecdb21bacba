import { randomUUID } from "node:crypto";
import { z } from "zod";
import { singleLine, withoutControlCharacters } from "../../../shared/control-characters.js";
import { defineTool, type ToolContext, ToolError } from "../../kit/define-tool.js";
import { CRONTAB_APPROVAL } from "../crontab/crontab-program.js";
import { formatClock, formatDay, requireWhen } from "../when.js";
import { type CalendarFile, readCalendar, updateCalendar } from "./calendar-file.js";
import { componentsWithUid, eventSummaries, occurrencesBetween } from "./occurrences.js";
import { removeReminders, scheduleReminders } from "./reminders.js";
import { markedDays, monthGrid, occurrenceList } from "./views.js";

const calendarPath = (context: ToolContext) => context.profiles.paths(context.profileName).calendar;

interface EventTimes {
  start: Date;
  end: Date;
  allDay: boolean;
}

/** Start and end as given; an all-day event without an end lasts one day, a timed one an hour. */
async function eventTimes(start: string, end: string, now: Date): Promise<EventTimes> {
  const begins = await requireWhen(start, now, "the start");
  const day = (date: Date) => new Date(date.getFullYear(), date.getMonth(), date.getDate());
  if (!begins.hasTime) {
    const first = day(begins.date);
    const last = end.trim() ? day((await requireWhen(end, first, "the end")).date) : first;
    if (last < first) throw new ToolError("The event ends before it starts.");
    return { start: first, end: new Date(last.getFullYear(), last.getMonth(), last.getDate() + 1), allDay: true };
  }
  begins.date.setSeconds(0, 0);
  const ends = end.trim()
    ? (await requireWhen(end, begins.date, "the end")).date
    : new Date(begins.date.getTime() + 3600_000);
  if (ends <= begins.date) throw new ToolError("The event ends before it starts. Give a later end.");
  return { start: begins.date, end: ends, allDay: false };
}

interface EventText {
  title: string;
  location: string;
  description: string;
}

/**
 * An event's text as calendar.ics may hold it (RFC 5545 TEXT has no control characters; ical.js
 * escapes line feeds but would keep a bare CR, which a reader splitting lines there takes for a new
 * property): the title on one line, location and description with line feeds only.
 */
function eventText(title: string, location: string, description: string): EventText {
  const text = {
    title: singleLine(title),
    location: withoutControlCharacters(location).trim(),
    description: withoutControlCharacters(description).trim(),
  };
  if (!text.title) throw new ToolError("The title is empty once its control characters are removed. Give a title.");
  return text;
}

function addEvent(file: CalendarFile, fields: EventText, times: EventTimes) {
  const { ical } = file;
  const event = new ical.Component("vevent");
  const uid = `${randomUUID()}@marvin`;
  const dateOnly = (date: Date) =>
    ical.Time.fromData({ year: date.getFullYear(), month: date.getMonth() + 1, day: date.getDate(), isDate: true });
  const moment = (date: Date) => (times.allDay ? dateOnly(date) : ical.Time.fromJSDate(date, true));
  event.updatePropertyWithValue("uid", uid);
  event.updatePropertyWithValue("dtstamp", ical.Time.fromJSDate(new Date(), true));
  event.updatePropertyWithValue("dtstart", moment(times.start));
  event.updatePropertyWithValue("dtend", moment(times.end));
  event.updatePropertyWithValue("summary", fields.title);
  if (fields.location) event.updatePropertyWithValue("location", fields.location);
  if (fields.description) event.updatePropertyWithValue("description", fields.description);
  file.calendar.addSubcomponent(event);
  return uid;
}

/** The event a delete means: by UID, else by title (exact, any case); several matches list the candidates. */
function eventToDelete(file: CalendarFile, uid: string, title: string): { uid: string; title: string } {
  const events = eventSummaries(file);
  if (uid.trim()) {
    const found = events.find((event) => event.uid === uid.trim());
    if (!found) throw new ToolError(`No event has the uid '${uid.trim()}'. calendar_list_upcoming shows uids.`);
    return found;
  }
  const wanted = title.trim().toLowerCase();
  if (!wanted) throw new ToolError("Give the uid or the title of the event to delete.");
  const matches = events.filter((event) => event.title.toLowerCase() === wanted);
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) throw new ToolError(`No event is titled '${title.trim()}'.`);
  const candidates = matches.map((event, index) => {
    const start = event.start ? `${formatDay(event.start)} ${formatClock(event.start)}` : "no start";
    return `${index + 1}. ${event.title}, ${start} (uid ${event.uid})`;
  });
  throw new ToolError(
    `${matches.length} events are titled '${title.trim()}'; nothing was deleted. Call again with the uid of one:\n` +
      candidates.join("\n"),
  );
}

export const calendarTools = [
  defineTool({
    name: "calendar_add_event",
    description:
      'Add an event to the user\'s calendar (calendar.ics in the profile). start/end like "2026-03-01 14:00", ' +
      '"tomorrow 9am", or a date alone for an all-day event. Timed events get reminders 1 h and 30 min before.',
    parameters: z.object({
      title: z.string().trim().min(1),
      start: z.string().min(1),
      end: z.string().default("").describe("default: 1 hour after start; all-day events: the same day"),
      location: z.string().default(""),
      description: z.string().default(""),
    }),
    effect: "write",
    approval: CRONTAB_APPROVAL,
    handler: async ({ title, start, end, location, description }, context) => {
      const times = await eventTimes(start, end, new Date());
      const details = eventText(title, location, description);
      const { file, result: uid } = await updateCalendar(calendarPath(context), (file) =>
        addEvent(file, details, times),
      );
      const [added] = occurrencesBetween(file, times.start, times.end).filter((item) => item.uid === uid);
      const reminders = times.allDay
        ? "All-day events get no reminders."
        : await scheduleReminders(context, {
            uid,
            title: details.title,
            location: details.location,
            start: times.start,
          });
      return `Added to the calendar:\n${occurrenceList(added ? [added] : [])}\n${reminders}`;
    },
  }),
  defineTool({
    name: "calendar_delete_event",
    description:
      "Delete an event (every occurrence of a recurring one) by uid, or by title; also removes its reminders.",
    parameters: z.object({ uid: z.string().default(""), title: z.string().default("") }),
    effect: "write",
    approval: CRONTAB_APPROVAL,
    handler: async ({ uid, title }, context) => {
      const { result: target } = await updateCalendar(calendarPath(context), (file) => {
        const found = eventToDelete(file, uid, title);
        for (const component of componentsWithUid(file, found.uid)) file.calendar.removeSubcomponent(component);
        return found;
      });
      const reminderProblem = await removeReminders(context, target.uid);
      return [`Deleted '${target.title}' (uid ${target.uid}).`, reminderProblem].filter(Boolean).join("\n");
    },
  }),
  defineTool({
    name: "calendar_view",
    description: "Show a month of the calendar as a grid with the days that have events marked, then its events.",
    parameters: z.object({
      month: z.number().int().min(0).max(12).default(0).describe("1-12; 0 = this month"),
      year: z.number().int().min(0).max(9999).default(0).describe("0 = this year"),
    }),
    effect: "read",
    handler: async ({ month, year }, context) => {
      const today = new Date();
      const shownYear = year || today.getFullYear();
      const shownMonth = month ? month - 1 : today.getMonth();
      const file = await readCalendar(calendarPath(context));
      const items = occurrencesBetween(
        file,
        new Date(shownYear, shownMonth, 1),
        new Date(shownYear, shownMonth + 1, 1),
      );
      const grid = monthGrid(shownYear, shownMonth, markedDays(items, shownYear, shownMonth));
      if (items.length === 0) return `${grid}\n\nNo events this month.`;
      return `${grid}\n(* = has events)\n\nEvents (${items.length}):\n${occurrenceList(items)}`;
    },
  }),
  defineTool({
    name: "calendar_list_upcoming",
    description: "List the calendar's events from now on, recurring ones expanded (default: the next 7 days).",
    parameters: z.object({ days: z.number().int().min(1).max(366).default(7) }),
    effect: "read",
    handler: async ({ days }, context) => {
      const now = new Date();
      const until = new Date(now.getTime() + days * 24 * 3600_000);
      const items = occurrencesBetween(await readCalendar(calendarPath(context)), now, until);
      const span = days === 1 ? "the next day" : `the next ${days} days`;
      if (items.length === 0) return `No events in ${span}.`;
      return `Events in ${span} (${items.length}):\n${occurrenceList(items)}`;
    },
  }),
];
