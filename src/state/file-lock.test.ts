import { spawnSync } from "node:child_process";
import { readdir, readFile, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test as base, describe, expect } from "../../tests/support/fixtures.js";
import { errorMessage } from "../shared/error-message.js";
import { sleep } from "../shared/sleep.js";
import { withFileLock } from "./file-lock.js";

const test = base.extend<{ dir: string; target: string; lockPath: string }>({
  dir: async ({ tempDirs }, use) => use(await tempDirs.make("marvin-lock-")),
  target: async ({ dir }, use) => use(join(dir, "usage.json")),
  lockPath: async ({ target }, use) => use(`${target}.lock`),
});

/** The pid of a process that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", ""]);
  return child.pid!;
}

/** A read-modify-write of a counter file, slow enough to interleave without the lock. */
async function increment(target: string): Promise<void> {
  const value = Number(await readFile(target, "utf8").catch(() => "0"));
  await sleep(2);
  await writeFile(target, String(value + 1));
}

describe("withFileLock", () => {
  test("runs read-modify-write cycles one at a time and removes the lock afterwards", async ({ dir, target }) => {
    await Promise.all(Array.from({ length: 20 }, () => withFileLock(target, () => increment(target))));
    expect(await readFile(target, "utf8")).toBe("20");
    expect(await readdir(dir)).toEqual(["usage.json"]);
  });

  test("writes the holder's pid and start time into the lock file", async ({ target, lockPath }) => {
    const owner = await withFileLock(target, async () => JSON.parse(await readFile(lockPath, "utf8")));
    expect(owner.pid).toBe(process.pid);
    expect(Math.abs(Date.now() - owner.since)).toBeLessThan(5_000);
  });

  test("breaks a lock left behind by a process that no longer exists", async ({ dir, target, lockPath }) => {
    await writeFile(lockPath, JSON.stringify({ pid: deadPid(), since: Date.now(), token: "left-behind" }));
    const started = Date.now();
    await withFileLock(target, () => increment(target), { staleMs: 60_000 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await readFile(target, "utf8")).toBe("1");
    expect(await readdir(dir)).toEqual(["usage.json"]);
  });

  test("breaks the stale lock once when many waiters find it at the same time", async ({ target, lockPath }) => {
    await writeFile(lockPath, JSON.stringify({ pid: deadPid(), since: Date.now(), token: "left-behind" }));
    await Promise.all(
      Array.from({ length: 20 }, () => withFileLock(target, () => increment(target), { staleMs: 60_000 })),
    );
    expect(await readFile(target, "utf8")).toBe("20");
  });

  test("breaks a lock older than the stale limit even when its process still runs", async ({ target, lockPath }) => {
    await writeFile(lockPath, JSON.stringify({ pid: process.pid, since: Date.now() - 120_000, token: "hung" }));
    await withFileLock(target, () => increment(target), { staleMs: 60_000 });
    expect(await readFile(target, "utf8")).toBe("1");
  });

  test("judges a lock without a readable owner by the file's age", async ({ target, lockPath }) => {
    await writeFile(lockPath, "");
    const old = new Date(Date.now() - 120_000);
    await utimes(lockPath, old, old);
    await withFileLock(target, () => increment(target), { staleMs: 60_000 });
    expect(await readFile(target, "utf8")).toBe("1");
  });

  test("waits for a live holder and, past the time limit, names the lock file to delete", async ({
    target,
    lockPath,
  }) => {
    await writeFile(lockPath, JSON.stringify({ pid: process.pid, since: Date.now(), token: "live" }));
    const failure = withFileLock(target, () => increment(target), { staleMs: 60_000, timeoutMs: 300 });
    const message = await failure.then(
      () => "acquired",
      (error: unknown) => errorMessage(error),
    );
    expect(message.startsWith(`${lockPath} is held by process ${process.pid} since `)).toBe(true);
    expect(message).toMatch(/; if no Marvin is running, delete that file\.$/);
    expect(JSON.parse(await readFile(lockPath, "utf8")).token).toBe("live");
    await expect(readFile(target, "utf8")).rejects.toThrow();
  });

  test("releases the lock when the action throws", async ({ dir, target }) => {
    await expect(withFileLock(target, async () => Promise.reject(new Error("disk full")))).rejects.toThrow("disk full");
    expect(await readdir(dir)).toEqual([]);
  });
});
