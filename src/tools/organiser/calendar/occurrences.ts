import type { CalendarFile } from "./calendar-file.js";
import type { IcalComponent, IcalEvent, IcalTime } from "./ical.js";

/** One occurrence of an event: a single event, or one instance of a recurring one. */
export interface Occurrence {
  uid: string;
  title: string;
  location: string;
  description: string;
  start: Date;
  /** Exclusive; for all-day events the midnight after the last day. */
  end: Date;
  allDay: boolean;
  recurring: boolean;
  /** The event's own time zone and wall-clock start, when it is not the local zone ("09:00 America/New_York"). */
  zoneNote?: string;
}

/** Instances looked at per recurring event at most: a daily event for a century. */
const MAX_INSTANCES = 40_000;

function zoneNote(time: IcalTime): string | undefined {
  const tzid = time.zone?.tzid;
  const localZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (time.isDate || !tzid || tzid === "UTC" || tzid === "floating" || tzid === localZone) return undefined;
  return `${String(time.hour).padStart(2, "0")}:${String(time.minute).padStart(2, "0")} ${tzid}`;
}

function occurrence(event: IcalEvent, start: IcalTime, end: IcalTime, item: IcalEvent): Occurrence {
  const startDate = start.toJSDate();
  const endDate = end.toJSDate();
  return {
    uid: event.uid ?? "",
    title: item.summary || "(no title)",
    location: item.location ?? "",
    description: item.description ?? "",
    start: startDate,
    end: new Date(Math.max(endDate.getTime(), startDate.getTime())),
    allDay: start.isDate,
    recurring: event.isRecurring(),
    zoneNote: zoneNote(start),
  };
}

const overlaps = (item: Occurrence, from: Date, to: Date) =>
  item.start < to && (item.end > from || (item.end.getTime() === item.start.getTime() && item.start >= from));

/** Recurring events with their moved or changed instances (RECURRENCE-ID) attached; lone events as they are. */
function events(file: CalendarFile): IcalEvent[] {
  const components = file.calendar.getAllSubcomponents("vevent") as IcalComponent[];
  const masters = new Map<string, IcalEvent>();
  const result: IcalEvent[] = [];
  for (const component of components.filter((candidate) => !candidate.hasProperty("recurrence-id"))) {
    const event = new file.ical.Event(component);
    masters.set(event.uid, event);
    result.push(event);
  }
  for (const component of components.filter((candidate) => candidate.hasProperty("recurrence-id"))) {
    const exception = new file.ical.Event(component);
    const master = masters.get(exception.uid);
    if (master) master.relateException(exception);
    else result.push(exception);
  }
  return result;
}

/** Every occurrence that overlaps [from, to), recurring events expanded, sorted by start. */
export function occurrencesBetween(file: CalendarFile, from: Date, to: Date): Occurrence[] {
  const found: Occurrence[] = [];
  for (const event of events(file)) {
    if (!event.startDate) continue;
    if (!event.isRecurring()) {
      const single = occurrence(event, event.startDate, event.endDate, event);
      if (overlaps(single, from, to)) found.push(single);
      continue;
    }
    const iterator = event.iterator();
    for (let count = 0, next = iterator.next(); next && count < MAX_INSTANCES; count++, next = iterator.next()) {
      const details = event.getOccurrenceDetails(next);
      const instance = occurrence(event, details.startDate, details.endDate, details.item);
      if (instance.start >= to) break;
      if (overlaps(instance, from, to)) found.push(instance);
    }
  }
  return found.sort((a, b) => a.start.getTime() - b.start.getTime());
}

/** The VEVENTs (a recurring event's moved instances included) that carry `uid`. */
export function componentsWithUid(file: CalendarFile, uid: string): IcalComponent[] {
  return (file.calendar.getAllSubcomponents("vevent") as IcalComponent[]).filter(
    (component) => component.getFirstPropertyValue("uid") === uid,
  );
}

/** Every distinct event (by UID) of the calendar, with its title and first start. */
export function eventSummaries(file: CalendarFile): Array<{ uid: string; title: string; start: Date | undefined }> {
  return events(file).map((event) => ({
    uid: event.uid,
    title: event.summary || "(no title)",
    start: event.startDate?.toJSDate(),
  }));
}
