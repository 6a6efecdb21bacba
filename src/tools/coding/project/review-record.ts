import { readdir, readFile, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { formatDuration } from "../../../shared/duration.js";
import { writeJsonAtomic } from "../../../state/atomic-file.js";
import { OWN_DIRS } from "../../../workspace/own-dirs.js";
import { readTextInside } from "../../../workspace/read-inside.js";
import { childCost, describeCost } from "../agents/child-marvin.js";

/** What is known about one background review, kept as `<id>.json` next to its output. */
export interface ReviewRecord {
  id: string;
  pid: number;
  /** The reviewed directory (absolute). */
  directory: string;
  focus: string;
  startedAt: string;
  /** The reviewer's stdout: the review itself. */
  outputFile: string;
  /** The reviewer's stderr: notices, errors and the MARVIN_COST line. */
  logFile: string;
}

/** Where reviews of a working dir are written. */
export const REVIEWS_SUBDIR = OWN_DIRS.reviews;

const ID_PATTERN = /^review-[0-9]{8}-[0-9]{6}(-[0-9]+)?$/;

const isReviewId = (id: string) => ID_PATTERN.test(id);

/** review-20250115-143012, with -2, -3… when that second is taken. Sorts by start time. */
export async function newReviewId(reviewsDir: string, now: Date): Promise<string> {
  const pad = (value: number) => String(value).padStart(2, "0");
  const day = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}`;
  const stamp = `${day}-${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  const taken = new Set(await readdir(reviewsDir).catch(() => []));
  let id = `review-${stamp}`;
  const isTaken = (candidate: string) => [".json", ".md", ".log"].some((extension) => taken.has(candidate + extension));
  for (let suffix = 2; isTaken(id); suffix++) id = `review-${stamp}-${suffix}`;
  return id;
}

export async function writeRecord(reviewsDir: string, record: ReviewRecord): Promise<void> {
  await writeJsonAtomic(join(reviewsDir, `${record.id}.json`), record);
}

/**
 * The record `<id>.json` in `reviewsDir`, read through the sandbox of that folder. Its output and
 * log files are always the ones next to it: paths written in the file are not trusted.
 */
export async function readRecord(reviewsDir: string, id: string): Promise<ReviewRecord | undefined> {
  if (!isReviewId(id)) return undefined;
  const text = await readTextInside(reviewsDir, `${id}.json`).catch(() => undefined);
  if (!text) return undefined;
  try {
    const record = JSON.parse(text) as ReviewRecord;
    return { ...record, id, outputFile: join(reviewsDir, `${id}.md`), logFile: join(reviewsDir, `${id}.log`) };
  } catch {
    return undefined;
  }
}

/** Ids of the reviews recorded in `reviewsDir`, oldest first. */
export async function recordedReviewIds(reviewsDir: string): Promise<string[]> {
  const names = await readdir(reviewsDir).catch(() => []);
  return names
    .filter((name) => name.endsWith(".json"))
    .map((name) => name.slice(0, -5))
    .filter(isReviewId)
    .sort();
}

/** True while `pid` runs (a zombie waiting to be reaped counts as ended). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  return true;
}

async function isZombie(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => undefined);
  return stat !== undefined && / Z /.test(stat.slice(stat.lastIndexOf(")")));
}

/** A review's output or log file, read through the sandbox of its folder (a symlink leading out, a FIFO: ""). */
export async function readText(path: string): Promise<string> {
  return (await readTextInside(dirname(path), basename(path)).catch(() => undefined)) ?? "";
}

/** `$0.0123, 3 LLM turns` from the reviewer's MARVIN_COST line, if it has written one. */
export function costSummary(log: string): string | undefined {
  const cost = childCost(log);
  return cost && describeCost(cost);
}

/**
 * Status of a review this session did not start (or no longer watches), read from its
 * files: running while its process lives; finished once its log ends with the cost line.
 */
export async function statusFromFiles(record: ReviewRecord, now: Date): Promise<string> {
  const started = Date.parse(record.startedAt);
  if (processAlive(record.pid) && !(await isZombie(record.pid)))
    return `running for ${formatDuration(now.getTime() - started)} (pid ${record.pid})`;
  const log = await readText(record.logFile);
  const ended = (await stat(record.logFile).catch(() => undefined))?.mtimeMs ?? now.getTime();
  const took = formatDuration(ended - started);
  if (!costSummary(log)) return `stopped after ${took} without finishing (killed or crashed)`;
  return /^Error: /m.test(log) ? `failed after ${took}` : `finished after ${took}`;
}
