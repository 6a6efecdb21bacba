import { randomBytes } from "node:crypto";
import { lstat, mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { sleep } from "../shared/sleep.js";

interface FileLockOptions {
  /** A lock this old is taken to be left behind by a hung or crashed process and is broken. */
  staleMs?: number;
  /** Waiting longer than this for the lock is an error. */
  timeoutMs?: number;
}

/** Reading, merging and writing usage.json takes milliseconds; ten seconds is far beyond any live holder. */
const DEFAULT_STALE_MS = 10_000;

interface LockOwner {
  pid: number;
  /** When the lock was taken, in ms since the epoch. */
  since: number;
  token: string;
}

function ignoreMissing(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(text) as Partial<LockOwner>;
    return Number.isInteger(owner.pid) && typeof owner.since === "number" ? (owner as LockOwner) : undefined;
  } catch {
    return undefined; // created but not written yet, or not ours: judged by its age alone
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"; // exists, but belongs to someone else
  }
}

/** Creates `path` with `content` only if it does not exist (O_EXCL); false when it does. */
async function createExclusive(path: string, content: string): Promise<boolean> {
  try {
    await writeFile(path, content, { flag: "wx", mode: 0o600 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

interface LockState {
  held: boolean;
  /** Held by a process that is gone, or for longer than the stale limit. */
  stale: boolean;
  owner?: LockOwner;
}

async function inspect(path: string, staleMs: number): Promise<LockState> {
  let text: string;
  let modified: number;
  try {
    modified = (await lstat(path)).mtimeMs;
    text = await readFile(path, "utf8");
  } catch (error) {
    ignoreMissing(error);
    return { held: false, stale: false };
  }
  const owner = parseOwner(text);
  const age = Date.now() - (owner?.since ?? modified);
  return { held: true, owner, stale: age > staleMs || (owner !== undefined && !processAlive(owner.pid)) };
}

/**
 * Removes the lock at `path` if it is stale. Two processes must not both break the same
 * stale lock (the second would delete the lock the first has just taken), so breaking is
 * itself done under a second lock, and staleness is checked again once it is held.
 */
async function breakIfStale(path: string, staleMs: number, owner: string): Promise<void> {
  if (!(await inspect(path, staleMs)).stale) return;
  const breaker = `${path}.break`;
  if (!(await createExclusive(breaker, owner))) {
    // Another process is breaking it; a breaker that died mid-way is cleared for the next try.
    if ((await inspect(breaker, staleMs)).stale) await unlink(breaker).catch(ignoreMissing);
    return;
  }
  try {
    if ((await inspect(path, staleMs)).stale) await unlink(path).catch(ignoreMissing);
  } finally {
    await unlink(breaker).catch(ignoreMissing);
  }
}

function describeHolder(state: LockState): string {
  if (!state.held || !state.owner) return "another process";
  return `process ${state.owner.pid} since ${new Date(state.owner.since).toISOString()}`;
}

/**
 * Runs `action` while holding `<path>.lock`, so that read-modify-write cycles of `path` by
 * several processes happen one after another. The lock file holds the owner's pid and start
 * time; a lock whose process is gone, or that is older than `staleMs`, is broken.
 */
export async function withFileLock<T>(
  path: string,
  action: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  const deadline = Date.now() + (options.timeoutMs ?? staleMs * 2);
  const lockPath = `${path}.lock`;
  const token = randomBytes(8).toString("hex");
  // Stamped at each attempt: a lock taken after a long wait must not look old to the others.
  const ownerText = () => JSON.stringify({ pid: process.pid, since: Date.now(), token } satisfies LockOwner);
  await mkdir(dirname(lockPath), { recursive: true });
  let mine = ownerText();
  for (let attempt = 0; !(await createExclusive(lockPath, mine)); attempt++) {
    await breakIfStale(lockPath, staleMs, mine);
    if (Date.now() > deadline) {
      const holder = describeHolder(await inspect(lockPath, staleMs));
      throw new Error(`${lockPath} is held by ${holder}; if no Marvin is running, delete that file.`);
    }
    await sleep(Math.min(50, 2 + attempt * 3) * (0.5 + Math.random()));
    mine = ownerText();
  }
  try {
    return await action();
  } finally {
    // A lock broken as stale may belong to someone else by now: remove only our own.
    const current = await readFile(lockPath, "utf8").catch(() => undefined);
    if (current === mine) await unlink(lockPath).catch(ignoreMissing);
  }
}
