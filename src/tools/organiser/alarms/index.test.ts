import { execFile } from "node:child_process";
import { existsSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach } from "vitest";
import { describe, expect, test } from "../../../../tests/support/fixtures.js";
import { startNtfyServer } from "../../../../tests/support/ntfy-server.js";
import type { TempDirs } from "../../../../tests/support/test-session.js";
import { ThrowawayCrontabs } from "../../../../tests/support/throwaway-crontab.js";
import type { ToolHarnessPool } from "../../../../tests/support/tool-harness.js";
import { cronDaemonRunning } from "../crontab/delivery.js";

const crontabs = new ThrowawayCrontabs();
afterEach(() => crontabs.cleanupAll());

/** The user's own lines: a comment with trailing spaces, a variable, a % (stdin in cron), a blank line. */
const USER_LINES = '# nightly jobs  \nMAILTO=""\n*/5 * * * * date +\\%H >> /tmp/ticks\n\n@reboot /usr/bin/true\n';

const scriptOf = (home: string, label: string) => join(home, ".config", "local-finder", "alarms", `alarm-${label}.sh`);

/** The cron fields of a moment, local time: minute hour day month. */
const cronFields = (date: Date) => `${date.getMinutes()} ${date.getHours()} ${date.getDate()} ${date.getMonth() + 1} *`;

async function setUp(harnesses: ToolHarnessPool, home: string) {
  const crontab = await crontabs.make();
  await crontab.install(USER_LINES);
  const harness = await harnesses.open({ home, env: { MARVIN_CRONTAB_COMMAND: crontab.command } });
  return { crontab, harness };
}

describe("set_alarm, list_alarms and cancel_alarm on a real crontab", () => {
  test("adds tagged one-shot lines after the user's lines, which stay byte for byte", async ({ home, harnesses }) => {
    const { crontab, harness } = await setUp(harnesses, home);
    const before = new Date();
    const text = await harness.ok("set_alarm", { time: "in 20 minutes", message: "Tea's ready", label: "tea" });
    const after = new Date();
    const expected = [before, after].map((moment) => {
      const at = new Date(moment.getTime() + 20 * 60_000);
      return `${cronFields(at)} /bin/sh '${scriptOf(home, "tea")}' # marvin:alarm:tea`;
    });
    const table = await crontab.read();
    expect(table.startsWith(USER_LINES)).toBe(true);
    expect(expected).toContain(table.slice(USER_LINES.length).trimEnd());
    expect(text).toMatch(
      /^Alarm 'tea' set for \w{3} \d+ \w{3} \d{4} \d\d:\d\d: "Tea's ready"\. It removes itself once it has fired\.\n/,
    );
    const script = readFileSync(scriptOf(home, "tea"), "utf8");
    expect(script).toContain("message='Tea'\\''s ready'");
    expect(script).not.toContain("curl"); // the profile has no ntfy topic

    await harness.ok("set_alarm", { time: "tomorrow 7am", message: "Get up", label: "wake up" });
    const tomorrow = new Date();
    tomorrow.setDate(tomorrow.getDate() + 1);
    tomorrow.setHours(7, 0, 0, 0);
    expect(await crontab.read()).toContain(
      `\n${cronFields(tomorrow)} /bin/sh '${scriptOf(home, "wake_up")}' # marvin:alarm:wake_up\n`,
    );

    const list = await harness.ok("list_alarms", {});
    expect(list.split("\n")).toEqual([
      "Alarms (2):",
      expect.stringMatching(/^1\. tea — \w{3} \d+ \w{3} \d{4} \d\d:\d\d: Tea's ready$/),
      expect.stringMatching(/^2\. wake_up — \w{3} \d+ \w{3} \d{4} 07:00: Get up$/),
    ]);

    // The same label again replaces the alarm.
    await harness.ok("set_alarm", { time: "07:30", message: "Get up, really", label: "wake_up" });
    const next730 = new Date();
    if (next730.getHours() * 60 + next730.getMinutes() >= 7 * 60 + 30) next730.setDate(next730.getDate() + 1);
    next730.setHours(7, 30, 0, 0);
    const replaced = await crontab.read();
    expect(replaced.match(/# marvin:alarm:wake_up/g)).toHaveLength(1);
    expect(replaced).toContain(`${cronFields(next730)} /bin/sh`);

    expect(await harness.ok("cancel_alarm", { label: "tea" })).toBe("Alarm 'tea' cancelled.");
    expect(existsSync(scriptOf(home, "tea"))).toBe(false);
    expect(await harness.failure("cancel_alarm", { label: "tea" })).toBe(
      "Error in cancel_alarm: No alarm is labelled 'tea'. Alarms: wake_up.",
    );
    await harness.ok("cancel_alarm", { label: "wake up" });
    expect(await crontab.read()).toBe(USER_LINES);
    expect(await harness.ok("list_alarms", {})).toBe("No alarms set.");
  });

  test("fires once: the script notifies, pushes to the profile's ntfy topic, then removes its line and itself", async ({
    home,
    harnesses,
    httpServers,
  }) => {
    const ntfy = await startNtfyServer(httpServers);
    const crontab = await crontabs.make();
    await crontab.install(USER_LINES);
    const env = { MARVIN_CRONTAB_COMMAND: crontab.command, MARVIN_NTFY_URL: ntfy.origin };
    const harness = await harnesses.open({ home, env });
    await harness.ok("ntfy_subscribe", { topic: "phone-alerts", own: true });
    expect(
      await harness.ok("set_alarm", { time: "in 2 hours", message: "Leave for the station", label: "train" }),
    ).toContain(`a push to your ntfy topic 'phone-alerts' (${ntfy.origin}/phone-alerts)`);
    await harness.ok("set_alarm", { time: "in 3 hours", message: "Other", label: "other" });

    // Run the script as cron would: /bin/sh, a bare PATH, no desktop.
    await promisify(execFile)("/bin/sh", [scriptOf(home, "train")], { env: { PATH: "/usr/bin:/bin" } });
    expect(ntfy.messages.get("phone-alerts")).toEqual([
      expect.objectContaining({ message: "Leave for the station", title: "Alarm: train", tags: ["alarm_clock"] }),
    ]);
    const table = await crontab.read();
    expect(table.startsWith(USER_LINES)).toBe(true);
    expect(table).not.toContain("marvin:alarm:train");
    expect(table).toContain("marvin:alarm:other");
    expect(existsSync(scriptOf(home, "train"))).toBe(false);
  });

  test("alarms set in parallel by one answer are all kept", async ({ home, harnesses }) => {
    const { crontab, harness } = await setUp(harnesses, home);
    const labels = ["one", "two", "three"];
    await Promise.all(
      labels.map((label, index) =>
        harness.ok("set_alarm", { time: `in ${20 + index} minutes`, message: label, label }),
      ),
    );
    const table = await crontab.read();
    expect(table.startsWith(USER_LINES)).toBe(true);
    for (const label of labels) expect(table).toContain(` # marvin:alarm:${label}\n`);
  });

  test("a crontab that refuses the new table is left as it was", async ({ home, harnesses }) => {
    const crontab = await crontabs.make();
    // A line crontab itself would refuse, put there by hand: every install now fails.
    await crontab.writeSpool("61 * * * * /usr/bin/true\n");
    const harness = await harnesses.open({ home, env: { MARVIN_CRONTAB_COMMAND: crontab.command } });
    const error = await harness.failure("set_alarm", { time: "in 10 minutes", message: "x", label: "never" });
    expect(error).toMatch(
      /^Error in set_alarm: crontab refused the new table, so the crontab was left as it was: .*bad minute/s,
    );
    expect(await crontab.read()).toBe("61 * * * * /usr/bin/true\n");
    expect(existsSync(scriptOf(home, "never"))).toBe(false);
  });

  test("says what to install when there is no crontab program", async ({ home, harnesses }) => {
    const harness = await harnesses.open({ home, env: { MARVIN_CRONTAB_COMMAND: "/nonexistent/crontab" } });
    for (const [tool, args] of [
      ["set_alarm", { time: "in 5 minutes", message: "x" }],
      ["list_alarms", {}],
    ] as const) {
      expect(await harness.failure(tool, args)).toBe(
        `Error in ${tool}: The program '/nonexistent/crontab' is not installed, so Marvin cannot read or change ` +
          "the crontab. Install it (Debian/Ubuntu: sudo apt install cron), or point MARVIN_CRONTAB_COMMAND at a " +
          "crontab program.",
      );
    }
  });

  test("refuses times in the past, without a time of day, or unreadable, before touching the crontab", async ({
    home,
    harnesses,
  }) => {
    const { crontab, harness } = await setUp(harnesses, home);
    expect(await harness.failure("set_alarm", { time: "yesterday 7am", message: "x" })).toMatch(/is in the past/);
    expect(await harness.failure("set_alarm", { time: "tomorrow", message: "x" })).toMatch(/has no time of day/);
    expect(await harness.failure("set_alarm", { time: "soonish", message: "x" })).toMatch(
      /Could not read the alarm time 'soonish'/,
    );
    expect(await harness.failure("set_alarm", { time: "in 5 minutes", message: "x", label: "!!" })).toMatch(
      /cannot be an alarm label/,
    );
    expect(await crontab.read()).toBe(USER_LINES);
  });
});

describe("set_alarm without a label", () => {
  test("two alarms without a label are both kept, each under a label of its own", async ({ home, harnesses }) => {
    const { crontab, harness } = await setUp(harnesses, home);
    const first = await harness.ok("set_alarm", { time: "tomorrow 7am", message: "Get up" });
    const second = await harness.ok("set_alarm", { time: "tomorrow 7am", message: "Really get up" });
    const labelOf = (text: string) => /^Alarm '([^']+)'/.exec(text)![1]!;
    expect(labelOf(first)).toBe("alarm-0700");
    expect(labelOf(second)).toBe("alarm-0700-2");
    const table = await crontab.read();
    expect(table.startsWith(USER_LINES)).toBe(true);
    expect(table).toContain(" # marvin:alarm:alarm-0700\n");
    expect(table).toContain(" # marvin:alarm:alarm-0700-2\n");
    expect(readFileSync(scriptOf(home, "alarm-0700"), "utf8")).toContain("message='Get up'");
    expect(readFileSync(scriptOf(home, "alarm-0700-2"), "utf8")).toContain("message='Really get up'");
  });
});

describe("where an alarm shows", () => {
  /** A folder to be the whole PATH: links to the given programs only. */
  async function pathWith(tempDirs: TempDirs, programs: string[]): Promise<string> {
    const dir = await tempDirs.make("marvin-path-");
    for (const program of programs) symlinkSync(`/usr/bin/${program}`, join(dir, program));
    return dir;
  }

  test("pushes only to the user's own topic, never to a topic subscribed from someone else", async ({
    home,
    harnesses,
    httpServers,
  }) => {
    const ntfy = await startNtfyServer(httpServers);
    const crontab = await crontabs.make();
    const env = { MARVIN_CRONTAB_COMMAND: crontab.command, MARVIN_NTFY_URL: ntfy.origin };
    const harness = await harnesses.open({ home, env });
    await harness.ok("ntfy_subscribe", { topic: "family-news", label: "Family" });
    const notOwn = await harness.ok("set_alarm", { time: "in 2 hours", message: "Tea", label: "tea" });
    expect(notOwn).toContain(
      "\nNo ntfy push: the profile has no ntfy topic of its own (generate_ntfy_topic makes one).",
    );
    expect(readFileSync(scriptOf(home, "tea"), "utf8")).not.toContain("curl");

    const generated = await harness.ok("generate_ntfy_topic", { label: "my phone" });
    const topic = /Topic: (\S+)/.exec(generated)![1]!;
    expect(generated).toContain("Alarms and calendar reminders are pushed to this topic from now on.");
    const text = await harness.ok("set_alarm", { time: "in 2 hours", message: "Leave", label: "train" });
    expect(text).toContain(`a push to your ntfy topic '${topic}' (${ntfy.origin}/${topic})`);
    await promisify(execFile)("/bin/sh", [scriptOf(home, "train")], { env: { PATH: "/usr/bin:/bin" } });
    expect(ntfy.messages.get(topic)).toEqual([expect.objectContaining({ message: "Leave", title: "Alarm: train" })]);
    expect(ntfy.messages.get("family-news")).toBeUndefined();

    // A topic the user says is their own takes over.
    expect(await harness.ok("ntfy_subscribe", { topic: "phone-alerts", own: true })).toContain(
      "Alarms and calendar reminders are pushed to it from now on (instead of",
    );
    expect(await harness.ok("set_alarm", { time: "in 3 hours", message: "x", label: "other" })).toContain(
      `a push to your ntfy topic 'phone-alerts' (${ntfy.origin}/phone-alerts)`,
    );
  });

  test("says clearly when nothing will show, and names the topic when a push will", async ({
    home,
    harnesses,
    tempDirs,
    httpServers,
  }) => {
    const crontab = await crontabs.make();
    const ntfy = await startNtfyServer(httpServers);
    const env = { MARVIN_CRONTAB_COMMAND: crontab.command, MARVIN_NTFY_URL: ntfy.origin };
    const bare = await harnesses.open({ home, env: { ...env, PATH: await pathWith(tempDirs, ["crontab"]) } });
    const nothing = await bare.ok("set_alarm", { time: "in 2 hours", message: "Tea", label: "tea" });
    expect(nothing).toContain(
      "\nWarning: nothing will show when it fires.\n" +
        "No desktop notification: notify-send is not installed (Debian/Ubuntu: sudo apt install libnotify-bin).\n" +
        "No ntfy push: the profile has no ntfy topic of its own (generate_ntfy_topic makes one).",
    );
    expect(nothing).not.toContain("It shows");

    const withCurl = await harnesses.open({
      home,
      env: { ...env, PATH: await pathWith(tempDirs, ["crontab", "curl"]) },
    });
    const topic = /Topic: (\S+)/.exec(await withCurl.ok("generate_ntfy_topic", {}))![1]!;
    const pushed = await withCurl.ok("set_alarm", { time: "in 2 hours", message: "Tea", label: "tea" });
    expect(pushed).toContain(`\nIt shows a push to your ntfy topic '${topic}' (${ntfy.origin}/${topic}).`);
    expect(pushed).toContain("\nNo desktop notification: notify-send is not installed");
    expect(pushed).not.toContain("nothing will show");

    const noCurl = await harnesses.open({ home, env: { ...env, PATH: await pathWith(tempDirs, ["crontab"]) } });
    expect(await noCurl.ok("set_alarm", { time: "in 2 hours", message: "Tea", label: "tea" })).toContain(
      `\nNo ntfy push to your topic '${topic}': curl is not installed (Debian/Ubuntu: sudo apt install curl).`,
    );
  });
});

describe("the cron daemon", () => {
  test("an alarm's answer warns exactly when no cron daemon runs", async ({ home, harnesses }) => {
    const { harness } = await setUp(harnesses, home);
    const text = await harness.ok("set_alarm", { time: "in 2 hours", message: "Tea", label: "tea" });
    const warning =
      "\nWarning: no cron daemon is running (no cron or crond process), so it will not fire until one is started " +
      "(Debian/Ubuntu: sudo systemctl start cron).";
    if (await cronDaemonRunning()) expect(text).not.toContain(warning);
    else expect(text).toContain(warning);
  });
});
