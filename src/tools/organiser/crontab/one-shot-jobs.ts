import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { singleLine, withoutControlCharacters } from "../../../shared/control-characters.js";
import type { Env } from "../../../shared/env.js";
import { writeFileAtomic } from "../../../state/atomic-file.js";
import { withFileLock } from "../../../state/file-lock.js";
import { type NtfyNote, publishBody } from "../ntfy/json-publish.js";
import type { PushTarget } from "../ntfy/push-target.js";
import { crontabArgv, installCrontab, readCrontab } from "./crontab-program.js";
import { type CronKind, cronTag, taggedLines, withAppended, withoutTagged } from "./tagged-lines.js";

/** A notification that fires once at `at`: a crontab line running a script that removes the line and itself. */
export interface OneShotJob {
  kind: CronKind;
  id: string;
  at: Date;
  title: string;
  message: string;
  /** The user's own ntfy topic, pushed to as well; undefined when the profile has none. */
  push?: PushTarget;
  /** ntfy tag (an emoji name) of the push. */
  pushTag: string;
}

/** What a job's script records about it, read back by list_alarms. */
interface JobRecord {
  kind: CronKind;
  id: string;
  at: string;
  title: string;
  message: string;
}

const RECORD_PREFIX = "# marvin-job: ";

const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
/** In a crontab command an unescaped % is a line break. */
const cronEscape = (command: string) => command.replaceAll("%", "\\%");

function jobScriptPath(alarmsDir: string, kind: CronKind, id: string): string {
  return join(alarmsDir, `${kind}-${id}.sh`);
}

function cronLine(job: OneShotJob, script: string): string {
  const { at } = job;
  const when = `${at.getMinutes()} ${at.getHours()} ${at.getDate()} ${at.getMonth() + 1} *`;
  return `${when} ${cronEscape(`/bin/sh ${shellQuote(script)}`)}${cronTag(job.kind, job.id)}`;
}

/** Shell lines posting `note` to `target` with curl, when curl is there when the job fires. */
function pushLines(target: PushTarget, note: NtfyNote): string[] {
  const body = JSON.stringify(publishBody(target.topic, note));
  return [
    "if command -v curl >/dev/null 2>&1; then",
    `  curl -fsS -m 15 --data-binary ${shellQuote(body)} ${shellQuote(target.server)} >/dev/null 2>&1 || true`,
    "fi",
  ];
}

/**
 * The script a job's crontab line runs. Cron has no year, so the line comes round every year on
 * its date: the script checks the year first, and only then shows the job and removes itself.
 * Its text is written without control characters, and the push goes out as ntfy's JSON
 * publishing, so no text of the job can become a header.
 */
function jobScript(job: OneShotJob, env: Env): string {
  const title = singleLine(job.title);
  const message = withoutControlCharacters(job.message);
  const record: JobRecord = { kind: job.kind, id: job.id, at: job.at.toISOString(), title, message };
  const crontab = crontabArgv(env).map(shellQuote).join(" ");
  const push = job.push ? pushLines(job.push, { title, message, tags: [job.pushTag] }) : [];
  return [
    "#!/bin/sh",
    `${RECORD_PREFIX}${JSON.stringify(record)}`,
    `# Written by Marvin for the crontab line tagged 'marvin:${job.kind}:${job.id}'. It fires once, then removes`,
    "# that line and this script. Cron has no year: in any other year it does nothing.",
    `[ "$(date +%Y)" = ${job.at.getFullYear()} ] || exit 0`,
    `title=${shellQuote(title)}`,
    `message=${shellQuote(message)}`,
    "if command -v notify-send >/dev/null 2>&1; then",
    '  [ -n "$DISPLAY" ] || export DISPLAY=:0',
    '  [ -n "$DBUS_SESSION_BUS_ADDRESS" ] || export DBUS_SESSION_BUS_ADDRESS="unix:path=/run/user/$(id -u)/bus"',
    '  notify-send -u critical -a Marvin "$title" "$message" || true',
    "fi",
    ...push,
    "table=$(mktemp) || exit 1",
    `if ${crontab} -l >"$table" 2>/dev/null; then`,
    `  grep -v -e ${shellQuote(`${cronTag(job.kind, job.id)}$`)} "$table" | ${crontab} -`,
    "fi",
    'rm -f "$table" "$0"',
    "",
  ].join("\n");
}

/** True when the date and time of `at` come round once more between `now` and `at`: cron would fire it early. */
export function comesRoundBefore(at: Date, now: Date): boolean {
  const yearEarlier = new Date(at);
  yearEarlier.setFullYear(at.getFullYear() - 1);
  return yearEarlier > now;
}

/**
 * Installs `jobs` (replacing Marvin's lines with the same kind and id) in one crontab write.
 * Scripts are written first and removed again when crontab refuses the new table.
 */
export async function scheduleOneShots(env: Env, alarmsDir: string, jobs: readonly OneShotJob[]): Promise<void> {
  if (jobs.length === 0) return;
  await inTurn(alarmsDir, async () => installJobs(env, alarmsDir, jobs, await readCrontab(env)));
}

/**
 * Read, change, install: parallel tool calls (three alarms in one answer) take turns, so none
 * installs a table read before another's change and loses it.
 */
function inTurn<T>(alarmsDir: string, change: () => Promise<T>): Promise<T> {
  return withFileLock(join(alarmsDir, "crontab"), change);
}

/**
 * Installs `job` under `baseId`, or under `baseId-2`, `-3`… when a line of its kind has that id
 * already, so it replaces nothing; returns the id it got.
 */
export async function scheduleUnderFreeId(
  env: Env,
  alarmsDir: string,
  job: Omit<OneShotJob, "id">,
  baseId: string,
): Promise<string> {
  return inTurn(alarmsDir, async () => {
    const table = await readCrontab(env);
    const taken = new Set(taggedLines(table, job.kind).map((line) => line.id));
    let id = baseId;
    for (let suffix = 2; taken.has(id); suffix++) id = `${baseId}-${suffix}`;
    await installJobs(env, alarmsDir, [{ ...job, id }], table);
    return id;
  });
}

async function installJobs(env: Env, alarmsDir: string, jobs: readonly OneShotJob[], table: string): Promise<void> {
  const scripts = jobs.map((job) => jobScriptPath(alarmsDir, job.kind, job.id));
  let next = table;
  for (const job of jobs) next = withoutTagged(next, job.kind, (id) => id === job.id);
  next = withAppended(
    next,
    jobs.map((job, index) => cronLine(job, scripts[index]!)),
  );
  await Promise.all(jobs.map((job, index) => writeFileAtomic(scripts[index]!, jobScript(job, env), { mode: 0o700 })));
  try {
    await installCrontab(env, next);
  } catch (error) {
    await Promise.all(scripts.map((script) => rm(script, { force: true })));
    throw error;
  }
}

/** Removes Marvin's lines of `kind` whose id `drop` accepts, and their scripts; returns the ids removed. */
export async function removeOneShots(
  env: Env,
  alarmsDir: string,
  kind: CronKind,
  drop: (id: string) => boolean,
): Promise<string[]> {
  return inTurn(alarmsDir, () => removeJobs(env, alarmsDir, kind, drop));
}

async function removeJobs(env: Env, alarmsDir: string, kind: CronKind, drop: (id: string) => boolean) {
  const table = await readCrontab(env);
  const removed = taggedLines(table, kind)
    .map((line) => line.id)
    .filter(drop);
  if (removed.length === 0) return [];
  await installCrontab(env, withoutTagged(table, kind, drop));
  await Promise.all(removed.map((id) => rm(jobScriptPath(alarmsDir, kind, id), { force: true })));
  return removed;
}

/** The record a job's script keeps; undefined when the script is gone or not Marvin's. */
export async function readJobRecord(alarmsDir: string, kind: CronKind, id: string): Promise<JobRecord | undefined> {
  const text = await readFile(jobScriptPath(alarmsDir, kind, id), "utf8").catch(() => "");
  const line = text.split("\n").find((candidate) => candidate.startsWith(RECORD_PREFIX));
  if (!line) return undefined;
  try {
    return JSON.parse(line.slice(RECORD_PREFIX.length)) as JobRecord;
  } catch {
    return undefined;
  }
}
