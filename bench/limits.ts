import { type SpawnOptions, spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { type MarvinRun, type RunOptions, runMarvin } from "../tests/support/run-marvin.js";

/** Error of a wait that ran out of time: names what was awaited, so a hang reads as a failure, not silence. */
class WaitTimedOut extends Error {}

/** What the part waits for right now: said when the runner stops it at its time limit (part.ts). */
const waits = new Set<string>();

export function pendingWaits(): string[] {
  return [...waits];
}

/** `work`, or a WaitTimedOut naming `what` once `limitMs` has passed; `onTimeout` cleans up (kills a child). */
export async function within<T>(what: string, limitMs: number, work: Promise<T>, onTimeout?: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  waits.add(what);
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout?.();
      reject(new WaitTimedOut(`timed out after ${(limitMs / 1000).toFixed(0)} s waiting for ${what}`));
    }, limitMs);
  });
  try {
    return await Promise.race([work, timedOut]);
  } finally {
    clearTimeout(timer);
    waits.delete(what);
  }
}

/** Milliseconds `work` takes. */
export async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** Milliseconds a child `command args` takes from spawn to a zero exit; fails on another exit or after `limitMs`. */
export async function timeChild(
  command: string,
  args: string[],
  options: SpawnOptions & { limitMs?: number } = {},
): Promise<number> {
  const started = performance.now();
  const child = spawn(command, args, { stdio: "ignore", ...options });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", resolve);
  });
  const what = `${command} ${args.join(" ")} to exit`;
  const code = await within(what, options.limitMs ?? 30_000, exited, () => child.kill("SIGKILL"));
  if (code !== 0) throw new Error(`${command} ${args.join(" ")} failed (exit ${code})`);
  return performance.now() - started;
}

/**
 * Runs each side `runs` times, taking turns, so that the load of the machine weighs on all alike.
 * Each side measures itself and returns its figure; the figures of each side, in order.
 */
export async function alternate<Side extends string>(
  runs: number,
  sides: Record<Side, () => Promise<number>>,
): Promise<Record<Side, number[]>> {
  const names = Object.keys(sides) as Side[];
  const figures = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<Side, number[]>;
  for (let run = 0; run < runs; run++) {
    // Who goes first changes every run: neither side always meets a cache warmed, or a machine loaded, by the other.
    const order = run % 2 ? [...names].reverse() : names;
    for (const name of order) figures[name].push(await sides[name]());
  }
  return figures;
}

/** Each marvin run of a benchmark ends within this, or fails naming its arguments. */
const MARVIN_RUN_LIMIT_MS = 30_000;

/** The built marvin run as runMarvin does, within its limit, named as the wait it is. */
export function runMarvinWithin(args: string[], options: RunOptions): Promise<MarvinRun> {
  const run = runMarvin(args, { ...options, timeoutMs: MARVIN_RUN_LIMIT_MS });
  return within(`marvin ${args.join(" ")} to exit`, MARVIN_RUN_LIMIT_MS + 1_000, run);
}
