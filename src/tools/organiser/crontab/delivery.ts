import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Env } from "../../../shared/env.js";
import { programOnPath } from "../../../shared/program-on-path.js";
import type { PushTarget } from "../ntfy/push-target.js";

/** Process names of the cron daemons of Debian (cron), Red Hat and busybox (crond), and fcron. */
const CRON_DAEMONS = new Set(["cron", "crond", "fcron"]);

/** Whether a cron daemon runs, from the process names in `procRoot`; undefined where there is no such folder. */
export async function cronDaemonRunning(procRoot = "/proc"): Promise<boolean | undefined> {
  let entries: string[];
  try {
    entries = await readdir(procRoot);
  } catch {
    return undefined;
  }
  const names = await Promise.all(
    entries
      .filter((entry) => /^\d+$/.test(entry))
      .map((pid) => readFile(join(procRoot, pid, "comm"), "utf8").catch(() => "")),
  );
  return names.some((name) => CRON_DAEMONS.has(name.trim()));
}

/** What a fired job will really show, and why the rest will not. */
interface Delivery {
  shows: string[];
  /** "No …: why" for each channel that will not show. */
  missing: string[];
  cronStopped: boolean;
}

/**
 * Why a desktop notification cannot show, or undefined when it can: the job script runs
 * notify-send on the user's session bus, which exists only while they are logged in to a desktop.
 */
async function desktopProblem(env: Env): Promise<string | undefined> {
  if (!(await programOnPath(env, "notify-send"))) {
    return "notify-send is not installed (Debian/Ubuntu: sudo apt install libnotify-bin)";
  }
  const bus = `/run/user/${process.getuid?.() ?? 0}/bus`;
  const present = await stat(bus).then(
    () => true,
    () => false,
  );
  return present ? undefined : `there is no desktop session to show it in (no session bus at ${bus})`;
}

/** The channels a job scheduled now will use when it fires: desktop, ntfy push, and whether cron runs at all. */
export async function plannedDelivery(env: Env, push: PushTarget | undefined): Promise<Delivery> {
  const [desktop, curl, cron] = await Promise.all([
    desktopProblem(env),
    push ? programOnPath(env, "curl") : undefined,
    cronDaemonRunning(),
  ]);
  const shows: string[] = [];
  const missing: string[] = [];
  if (desktop) missing.push(`No desktop notification: ${desktop}.`);
  else shows.push("a desktop notification");
  if (!push) missing.push("No ntfy push: the profile has no ntfy topic of its own (generate_ntfy_topic makes one).");
  else if (!curl) {
    missing.push(
      `No ntfy push to your topic '${push.topic}': curl is not installed (Debian/Ubuntu: sudo apt install curl).`,
    );
  } else shows.push(`a push to your ntfy topic '${push.topic}' (${push.url})`);
  return { shows, missing, cronStopped: cron === false };
}

/** Lines for a tool's answer about one job ("it") or several ("they"): what shows, what does not, and why. */
export function deliveryLines(delivery: Delivery, subject: "it" | "they"): string[] {
  const [Subject, fires, shows] = subject === "it" ? ["It", "fires", "shows"] : ["They", "fire", "show"];
  const lines: string[] = [];
  if (delivery.cronStopped) {
    lines.push(
      `Warning: no cron daemon is running (no cron or crond process), so ${subject} will not fire until one is ` +
        "started (Debian/Ubuntu: sudo systemctl start cron).",
    );
  }
  lines.push(
    delivery.shows.length
      ? `${Subject} ${shows} ${delivery.shows.join(" and ")}.`
      : `Warning: nothing will show when ${subject} ${fires}.`,
  );
  return [...lines, ...delivery.missing];
}
