import { readdirSync, readFileSync } from "node:fs";
import { sleep } from "../../src/shared/sleep.js";

/** True while the process runs; a zombie awaiting its reaper counts as gone. */
export function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/ Z /.test(stat.slice(stat.lastIndexOf(")")));
  } catch {
    return false;
  }
}

/** Polls `condition` until it holds; throws after `timeoutMs`. */
export async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await sleep(20);
  }
}

/** Kills processes a failed test may have left behind. */
export function killLeftovers(pids: number[]): void {
  for (const pid of pids.splice(0)) if (running(pid)) process.kill(pid, "SIGKILL");
}

/** Host pids of the processes whose command line starts with `word` (not the shells that run it). */
export function processesWith(word: string): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").startsWith(word);
      } catch {
        return false;
      }
    })
    .map(Number);
}
