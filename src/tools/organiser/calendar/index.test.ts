// Local time for every date below; set before any date is made.
process.env.TZ = "Europe/Berlin";

import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import ICAL from "ical.js";
import { afterEach } from "vitest";
import { describe, expect, test } from "../../../../tests/support/fixtures.js";
import { startNtfyServer } from "../../../../tests/support/ntfy-server.js";
import { APPLE_EXPORT, GOOGLE_EXPORT, THUNDERBIRD_EXPORT } from "../../../../tests/support/payloads/organiser.js";
import { ThrowawayCrontabs } from "../../../../tests/support/throwaway-crontab.js";
import { formatDay } from "../when.js";

const crontabs = new ThrowawayCrontabs();
/** Tests that give no crontab of their own get none: the developer's crontab is never touched. */
const NO_CRONTAB = { MARVIN_CRONTAB_COMMAND: "/nonexistent/bin/crontab" };
afterEach(() => crontabs.cleanupAll());

const profileDir = (home: string) => join(home, ".config", "local-finder", "profiles", "main");
const calendarFile = (home: string) => join(profileDir(home), "calendar.ics");

function writeCalendar(home: string, text: string): void {
  mkdirSync(profileDir(home), { recursive: true });
  writeFileSync(calendarFile(home), text);
}

/** "YYYY-MM-DD" of the day `days` from today, local time. */
function dayFromToday(days: number): { text: string; date: Date } {
  const now = new Date();
  const date = new Date(now.getFullYear(), now.getMonth(), now.getDate() + days);
  const two = (value: number) => String(value).padStart(2, "0");
  return { text: `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`, date };
}

describe("calendar files exported by other programs", () => {
  test("a Google Calendar export: VTIMEZONE, a weekly RRULE with an EXDATE, all-day, folded and escaped text", async ({
    home,
    harnesses,
  }) => {
    writeCalendar(home, GOOGLE_EXPORT);
    const harness = await harnesses.open({ home, env: NO_CRONTAB });
    expect(await harness.ok("calendar_view", { month: 3, year: 2026 })).toBe(
      [
        "March 2026",
        "  Mo  Tu  We  Th  Fr  Sa  Su",
        "                          1",
        "  2*  3   4   5   6   7   8",
        "  9* 10  11  12  13  14  15",
        " 16  17* 18  19  20  21  22",
        " 23* 24  25  26  27  28  29",
        " 30  31",
        "(* = has events)",
        "",
        "Events (4):",
        // 09:00 in New York is 15:00 in Berlin before the US switch to summer time on 8 March, 14:00 after it.
        "1. Mon 2 Mar 2026 15:00–15:30 (09:00 America/New_York) — Team standup @ Room 4, 2nd floor " +
          "(uid 4b5ptq1hd9ro3qk6sv2bt1gq6k@google.com, repeats)",
        "   Weekly sync with the platform team. The agenda lives in the shared doc; bring this week's numbers, please.",
        "2. Mon 9 Mar 2026 14:00–14:30 (09:00 America/New_York) — Team standup @ Room 4, 2nd floor " +
          "(uid 4b5ptq1hd9ro3qk6sv2bt1gq6k@google.com, repeats)",
        "   Weekly sync with the platform team. The agenda lives in the shared doc; bring this week's numbers, please.",
        "3. Tue 17 Mar 2026, all day — St. Patrick's Day (uid 0v9m3k2c6h1q8e5a7r4t2y6u1i@google.com)",
        "4. Mon 23 Mar 2026 14:00–14:30 (09:00 America/New_York) — Team standup @ Room 4, 2nd floor " +
          "(uid 4b5ptq1hd9ro3qk6sv2bt1gq6k@google.com, repeats)",
        "   Weekly sync with the platform team. The agenda lives in the shared doc; bring this week's numbers, please.",
      ].join("\n"),
    );
  });

  test("an Apple Calendar export: a yearly all-day birthday, a three-day trip, a multi-line location", async ({
    home,
    harnesses,
  }) => {
    writeCalendar(home, APPLE_EXPORT);
    const harness = await harnesses.open({ home, env: NO_CRONTAB });
    const text = await harness.ok("calendar_view", { month: 3, year: 2026 });
    expect(text).toContain(" 23  24  25  26  27  28* 29*\n 30* 31\n");
    expect(text).toContain(
      "1. Tue 10 Mar 2026 18:30–19:30 — Dentist @ Zahnarztpraxis Dr. Weiß, Friedrichstraße 123, 10117 Berlin " +
        "(uid 9D1C3E0A-5B2F-4C7E-8A61-3F4D2B1E7C90)\n" +
        "2. Sat 21 Mar 2026, all day — Mum's birthday (uid B2E7A1D4-8C3F-4E6A-9B5D-1F0C2E3A4D5B, repeats)\n" +
        "3. Sat 28 Mar 2026 to Mon 30 Mar 2026, all day — Hiking trip (uid F4C2B9E1-6A3D-4F8B-A7C5-2E1D0B9A8F76)",
    );
    // The birthday began in 2016 and still comes round ten years on.
    expect(await harness.ok("calendar_view", { month: 3, year: 2036 })).toContain("Fri 21 Mar 2036, all day — Mum's");
  });

  test("a Thunderbird export: a four-week series with one instance moved and renamed (RECURRENCE-ID)", async ({
    home,
    harnesses,
  }) => {
    writeCalendar(home, THUNDERBIRD_EXPORT);
    const harness = await harnesses.open({ home, env: NO_CRONTAB });
    const text = await harness.ok("calendar_view", { month: 3, year: 2026 });
    expect(text.split("\n").filter((line) => /^\d\. /.test(line))).toEqual([
      "1. Thu 5 Mar 2026 20:00–22:00 (19:00 Europe/London) — Choir rehearsal @ St Mary's Church Hall " +
        "(uid 3f1c9a52-7d4e-4b8a-9e21-6c0d5b7a8e34, repeats)",
      "2. Thu 12 Mar 2026 20:00–22:00 (19:00 Europe/London) — Choir rehearsal @ St Mary's Church Hall " +
        "(uid 3f1c9a52-7d4e-4b8a-9e21-6c0d5b7a8e34, repeats)",
      "3. Thu 19 Mar 2026 21:00–23:00 (20:00 Europe/London) — Choir rehearsal (concert run-through) @ " +
        "St Mary's Church Hall (uid 3f1c9a52-7d4e-4b8a-9e21-6c0d5b7a8e34, repeats)",
      "4. Thu 26 Mar 2026 20:00–22:00 (19:00 Europe/London) — Choir rehearsal @ St Mary's Church Hall " +
        "(uid 3f1c9a52-7d4e-4b8a-9e21-6c0d5b7a8e34, repeats)",
    ]);
    expect(await harness.ok("calendar_view", { month: 4, year: 2026 })).toMatch(/No events this month\.$/);
  });

  test("adding an event keeps what the other program wrote: time zones, alarms, its own properties", async ({
    home,
    harnesses,
  }) => {
    writeCalendar(home, APPLE_EXPORT);
    const harness = await harnesses.open({ home, env: NO_CRONTAB });
    const added = await harness.ok("calendar_add_event", { title: "Call the bank", start: "2026-03-12 10:15" });
    expect(added).toMatch(/\nNo reminders: both reminder times have passed\.$/);
    const written = readFileSync(calendarFile(home), "utf8");
    for (const kept of [
      "PRODID:-//Apple Inc.//macOS 14.4//EN",
      "X-APPLE-CALENDAR-COLOR:#34AADC",
      "BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n",
      "DTSTART;TZID=Europe/Berlin:20260310T183000",
      "X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC",
      "TRIGGER:-PT15M",
      "DTSTART;VALUE=DATE:20160321",
      "RRULE:FREQ=YEARLY",
    ])
      expect(written).toContain(kept);
    expect(written).not.toMatch(/[^\r]\n/); // CRLF line ends throughout
    for (const line of written.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    // 10:15 in Berlin (winter time) is stored in UTC.
    expect(written).toMatch(/BEGIN:VEVENT\r\nUID:[0-9a-f-]+@marvin\r\nDTSTAMP:\d{8}T\d{6}Z\r\n/);
    expect(written).toContain("DTSTART:20260312T091500Z\r\nDTEND:20260312T101500Z\r\nSUMMARY:Call the bank\r\n");
    expect(await harness.ok("calendar_view", { month: 3, year: 2026 })).toContain("\n  9  10* 11  12* 13  14  15\n");
  });
});

describe("calendar_add_event and calendar_delete_event", () => {
  test("events added in parallel by one answer are all kept", async ({ home, harnesses }) => {
    const harness = await harnesses.open({ home, env: NO_CRONTAB });
    const titles = ["Dentist", "Haircut", "Book club"];
    await Promise.all(titles.map((title) => harness.ok("calendar_add_event", { title, start: "2026-07-04" })));
    const written = readFileSync(calendarFile(home), "utf8");
    for (const title of titles) expect(written).toContain(`SUMMARY:${title}\r\n`);
  });

  test("writes an all-day event as VALUE=DATE and a long title folded, both read back by ical.js", async ({
    home,
    harnesses,
  }) => {
    const harness = await harnesses.open({ home, env: NO_CRONTAB });
    const title = "Grandma's 90th birthday party — bring the photo album, the cake and the folding chairs";
    const text = await harness.ok("calendar_add_event", { title, start: "2026-07-04", location: "Garden; Main St." });
    expect(text).toMatch(
      /^Added to the calendar:\n1\. Sat 4 Jul 2026, all day — Grandma's 90th .* @ Garden; Main St\. /,
    );
    expect(text).toMatch(/\nAll-day events get no reminders\.$/);
    const written = readFileSync(calendarFile(home), "utf8");
    expect(written).toContain("DTSTART;VALUE=DATE:20260704\r\nDTEND;VALUE=DATE:20260705\r\n");
    expect(written).toMatch(/\r\n [^\r]+/); // a folded continuation line
    const event = new ICAL.Event(new ICAL.Component(ICAL.parse(written)).getFirstSubcomponent("vevent")!);
    expect(event.summary).toBe(title);
    expect(event.location).toBe("Garden; Main St.");
    expect(event.startDate.isDate).toBe(true);
  });

  test("puts reminders 1 h and 30 min before into the crontab, and removes them with the event", async ({
    home,
    harnesses,
  }) => {
    const crontab = await crontabs.make();
    const userLines = "# my backups  \nMAILTO=me@example.org\n15 3 * * * /usr/local/bin/backup --all >/dev/null 2>&1\n";
    await crontab.install(userLines);
    const harness = await harnesses.open({ home, env: { MARVIN_CRONTAB_COMMAND: crontab.command } });
    const day = dayFromToday(3);
    const text = await harness.ok("calendar_add_event", {
      title: "Dentist",
      start: `${day.text} 10:00`,
      end: "10:45",
      location: "Main St 5",
    });
    expect(text).toMatch(
      / 10:00–10:45 — Dentist @ Main St 5 \(uid [0-9a-f-]+@marvin\)\nReminders at 09:00 and 09:30\.\n/,
    );
    const table = await crontab.read();
    expect(table.startsWith(userLines)).toBe(true);
    const added = table.slice(userLines.length).split("\n").filter(Boolean);
    const date = `${day.date.getDate()} ${day.date.getMonth() + 1}`;
    const script = (id: string) => `${home}/.config/local-finder/alarms/reminder-${id}.sh`;
    const ids = added.map((line) => /# marvin:reminder:([0-9a-f]{16}-\d+)$/.exec(line)![1]!);
    expect(added).toEqual([
      `0 9 ${date} * /bin/sh '${script(ids[0]!)}' # marvin:reminder:${ids[0]}`,
      `30 9 ${date} * /bin/sh '${script(ids[1]!)}' # marvin:reminder:${ids[1]}`,
    ]);
    expect(ids[0]).toMatch(/-60$/);
    expect(readFileSync(script(ids[0]!), "utf8")).toContain("message='Dentist at 10:00, Main St 5'");

    await harness.ok("calendar_add_event", { title: "Dentist", start: `${dayFromToday(9).text} 10:00` });
    const ambiguous = await harness.failure("calendar_delete_event", { title: "dentist" });
    expect(ambiguous).toMatch(
      /2 events are titled 'dentist'; nothing was deleted\. Call again with the uid of one:\n1\. /,
    );
    const uid = /\(uid ([^)]+)\)/.exec(text)![1]!;
    expect(await harness.ok("calendar_delete_event", { uid })).toBe(`Deleted 'Dentist' (uid ${uid}).`);
    const after = await crontab.read();
    expect(after.startsWith(userLines)).toBe(true);
    expect(after).not.toContain(ids[0]);
    expect(after).not.toContain(ids[1]);
    expect(taggedCount(after)).toBe(2); // the other Dentist's reminders
    expect(existsSync(script(ids[0]!))).toBe(false);
    expect(readFileSync(calendarFile(home), "utf8")).not.toContain(uid);
    expect(await harness.ok("calendar_delete_event", { title: "Dentist" })).toMatch(/^Deleted 'Dentist'/);
    expect(await crontab.read()).toBe(userLines);
  });

  test("keeps the event when there is no crontab program, and says what to install", async ({ home, harnesses }) => {
    const harness = await harnesses.open({ home, env: NO_CRONTAB });
    const text = await harness.ok("calendar_add_event", { title: "Talk", start: `${dayFromToday(2).text} 18:00` });
    expect(text).toMatch(
      /\nReminders could not be scheduled: The program '\/nonexistent\/bin\/crontab' is not installed, .*sudo apt install cron/,
    );
    expect(readFileSync(calendarFile(home), "utf8")).toContain("SUMMARY:Talk");
    expect(await harness.ok("calendar_delete_event", { title: "Talk" })).toMatch(/^Deleted 'Talk' \(uid .*\)\.$/);
  });

  test("refuses starts it cannot read and ends before the start", async ({ home, harnesses }) => {
    const harness = await harnesses.open({ home, env: NO_CRONTAB });
    expect(await harness.failure("calendar_add_event", { title: "X", start: "whenever" })).toContain(
      "Could not read the start 'whenever'",
    );
    expect(
      await harness.failure("calendar_add_event", { title: "X", start: "2026-05-01 10:00", end: "2026-05-01 09:00" }),
    ).toContain("The event ends before it starts");
    expect(existsSync(calendarFile(home))).toBe(false);
    expect(await harness.failure("calendar_delete_event", { title: "Nothing" })).toContain(
      "No event is titled 'Nothing'",
    );
  });

  test("leaves a calendar it cannot parse as it is", async ({ home, harnesses }) => {
    writeCalendar(home, "this is not a calendar\n");
    const harness = await harnesses.open({ home, env: NO_CRONTAB });
    expect(await harness.failure("calendar_add_event", { title: "X", start: "2026-05-01" })).toContain(
      "is not valid iCalendar",
    );
    expect(readFileSync(calendarFile(home), "utf8")).toBe("this is not a calendar\n");
  });
});

const taggedCount = (table: string) => table.split("\n").filter((line) => line.includes("# marvin:reminder:")).length;

describe("calendar_list_upcoming", () => {
  test("says so when nothing is coming, and expands a recurring event into the days asked for", async ({
    home,
    harnesses,
  }) => {
    const harness = await harnesses.open({ home, env: NO_CRONTAB });
    expect(await harness.ok("calendar_list_upcoming", {})).toBe("No events in the next 7 days.");
    const start = dayFromToday(-14).text.replaceAll("-", "");
    writeCalendar(
      home,
      APPLE_EXPORT.replace(
        "BEGIN:VEVENT\r\nTRANSP:TRANSPARENT\r\nDTEND;VALUE=DATE:20260331",
        `BEGIN:VEVENT\r\nDTSTART;VALUE=DATE:${start}\r\nRRULE:FREQ=DAILY;INTERVAL=7\r\nSUMMARY:Bins out\r\n` +
          "UID:bins@example.org\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nTRANSP:TRANSPARENT\r\nDTEND;VALUE=DATE:20260331",
      ),
    );
    const text = await harness.ok("calendar_list_upcoming", { days: 15 });
    const bins = text.split("\n").filter((line) => line.includes("Bins out"));
    // Today's (already under way, so listed), in 7 days and in 14 days.
    expect(bins.map((line) => line.replace(/^\d+\. /, ""))).toEqual(
      [0, 7, 14].map(
        (days) => `${formatDay(dayFromToday(days).date)}, all day — Bins out (uid bins@example.org, repeats)`,
      ),
    );
  });
});

describe("hostile text in events", () => {
  test("a title with CR/LF cannot add headers to the reminder's push: it arrives as one line", async ({
    home,
    harnesses,
    httpServers,
  }) => {
    const ntfy = await startNtfyServer(httpServers);
    const crontab = await crontabs.make();
    const env = { MARVIN_CRONTAB_COMMAND: crontab.command, MARVIN_NTFY_URL: ntfy.origin };
    const harness = await harnesses.open({ home, env });
    const topic = /Topic: (\S+)/.exec(await harness.ok("generate_ntfy_topic", {}))![1]!;
    const title =
      "Dentist\r\nClick: http://evil.example\r\nEmail: me@evil.example\r\nActions: view, Open, http://evil.example";
    const text = await harness.ok("calendar_add_event", { title, start: `${dayFromToday(3).text} 10:00` });
    const ids = [...(await crontab.read()).matchAll(/# marvin:reminder:(\S+)$/gm)].map((match) => match[1]!);
    expect(ids).toHaveLength(2);
    const script = join(home, ".config", "local-finder", "alarms", `reminder-${ids[0]}.sh`);
    // As cron runs it: /bin/sh, a bare PATH, no desktop.
    await promisify(execFile)("/bin/sh", [script], { env: { PATH: "/usr/bin:/bin" } });
    expect(ntfy.requests).toHaveLength(1);
    for (const header of ["click", "email", "actions"]) expect(ntfy.requests[0]!.headers[header]).toBeUndefined();
    const oneLine =
      "Dentist Click: http://evil.example Email: me@evil.example Actions: view, Open, http://evil.example";
    expect(ntfy.messages.get(topic)).toEqual([
      expect.objectContaining({ title: `${oneLine} in 1 hour`, message: `${oneLine} at 10:00` }),
    ]);
    expect(text).toContain(`— ${oneLine} (uid `);
  });

  test("calendar.ics holds no bare CR or other control character from an event's text", async ({ home, harnesses }) => {
    const harness = await harnesses.open({ home, env: NO_CRONTAB });
    await harness.ok("calendar_add_event", {
      title: "Lunch\rATTENDEE:mailto:boss@evil.example\u0007",
      start: "2026-07-04",
      location: "Main St\r5\u001b[31m",
      description: "Bring:\r\n- cake\r- plates\u0000\nThanks",
    });
    const raw = readFileSync(calendarFile(home));
    // CR only as the CR of a CRLF line end; no other control character but the LF after it.
    expect(raw.toString("latin1")).not.toMatch(/\r(?!\n)|[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f]/);
    const written = raw.toString("utf8");
    expect(written).toContain("SUMMARY:Lunch ATTENDEE:mailto:boss@evil.example\r\n");
    expect(written).not.toMatch(/^ATTENDEE/m);
    expect(written).toContain("LOCATION:Main St\\n5[31m\r\n");
    expect(written).toContain("DESCRIPTION:Bring:\\n- cake\\n- plates\\nThanks\r\n");
  });
});

describe("reminders of events more than a year ahead", () => {
  test("come round every year in the crontab but fire, and remove themselves, only in the event's year", async ({
    home,
    harnesses,
    httpServers,
  }) => {
    const ntfy = await startNtfyServer(httpServers);
    const crontab = await crontabs.make();
    const env = { MARVIN_CRONTAB_COMMAND: crontab.command, MARVIN_NTFY_URL: ntfy.origin };
    const harness = await harnesses.open({ home, env });
    await harness.ok("generate_ntfy_topic", {});
    const year = new Date().getFullYear() + 2;
    const text = await harness.ok("calendar_add_event", { title: "Conference", start: `${year}-03-10 10:00` });
    const table = await crontab.read();
    const ids = [...table.matchAll(/^0 9 10 3 \* .*# marvin:reminder:(\S+)$/gm)].map((match) => match[1]!);
    expect(ids).toHaveLength(1);
    const script = join(home, ".config", "local-finder", "alarms", `reminder-${ids[0]}.sh`);
    // Run now, as cron would on 10 March of an earlier year: nothing shows, nothing is removed.
    await promisify(execFile)("/bin/sh", [script], { env: { PATH: "/usr/bin:/bin" } });
    expect(ntfy.requests).toEqual([]);
    expect(await crontab.read()).toBe(table);
    expect(existsSync(script)).toBe(true);
    expect(text).toContain(
      `\nReminders at 09:00 and 09:30. Cron has no year, so their crontab lines come round every year; they only ` +
        `show, and remove themselves, on ${formatDay(new Date(year, 2, 10))}.`,
    );
  });
});
