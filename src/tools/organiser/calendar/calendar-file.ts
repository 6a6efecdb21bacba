import { errorMessage } from "../../../shared/error-message.js";
import { readTextIfExists, writeFileAtomic } from "../../../state/atomic-file.js";
import { withFileLock } from "../../../state/file-lock.js";
import { ToolError } from "../../kit/define-tool.js";
import { type Ical, type IcalComponent, loadIcal } from "./ical.js";

export interface CalendarFile {
  ical: Ical;
  /** The VCALENDAR component, with everything the file holds (time zones, other programs' properties). */
  calendar: IcalComponent;
}

function emptyCalendar(ical: Ical): IcalComponent {
  const calendar = new ical.Component(["vcalendar", [], []]);
  calendar.updatePropertyWithValue("prodid", "-//Marvin//Marvin assistant//EN");
  calendar.updatePropertyWithValue("version", "2.0");
  calendar.updatePropertyWithValue("calscale", "GREGORIAN");
  return calendar;
}

/** The profile's calendar.ics (an empty calendar when there is none yet). */
export async function readCalendar(path: string): Promise<CalendarFile> {
  const ical = await loadIcal();
  const text = await readTextIfExists(path).catch((error: unknown) => {
    throw new ToolError(`Could not read the calendar ${path}: ${errorMessage(error)}`);
  });
  if (text === undefined || text.trim() === "") return { ical, calendar: emptyCalendar(ical) };
  let parsed: unknown;
  try {
    parsed = ical.parse(text);
  } catch (error) {
    throw new ToolError(
      `The calendar ${path} is not valid iCalendar (${errorMessage(error)}). Fix or move the file; Marvin ` +
        "leaves it as it is.",
    );
  }
  if (!Array.isArray(parsed) || parsed[0] !== "vcalendar") {
    throw new ToolError(`The calendar ${path} does not start with BEGIN:VCALENDAR. Fix or move the file.`);
  }
  return { ical, calendar: new ical.Component(parsed as [string, unknown[], unknown[]]) };
}

/**
 * Reads the calendar, lets `change` edit it, and writes it back whole (folded lines, CRLF, as
 * RFC 5545 wants) atomically, under `calendar.ics.lock`: events added in parallel are all kept.
 */
export function updateCalendar<T>(
  path: string,
  change: (file: CalendarFile) => T,
): Promise<{ file: CalendarFile; result: T }> {
  return withFileLock(path, async () => {
    const file = await readCalendar(path);
    const result = change(file);
    await writeFileAtomic(path, `${file.calendar.toString()}\r\n`);
    return { file, result };
  });
}
