import type { ProcessEntry, ProcessTree } from "./process-tree.js";

/** After SIGTERM, how long processes get to exit before SIGKILL. */
const KILL_GRACE_MS = 1_000;
/** After SIGKILL, how long the kernel gets to take the processes down before they count as survivors. */
const REAP_MS = 500;
const CHECK_EVERY_MS = 20;

export interface KillReport {
  /** Processes found running and verified gone afterwards (empty when unverifiable). */
  killed: ProcessEntry[];
  /** Processes still running after SIGKILL. */
  survivors: ProcessEntry[];
  /** False without /proc: processes that left the process group could be neither found nor checked. */
  verified: boolean;
}

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, CHECK_EVERY_MS));
}

/** SIGTERM to everything the command started, SIGKILL after a grace period, then a check of what is left. */
export async function terminate(tree: ProcessTree, graceMs = KILL_GRACE_MS): Promise<KillReport> {
  tree.refresh(true);
  const found = new Map(tree.alive().map((entry) => [entry.pid, entry]));
  tree.signal("SIGTERM");
  await waitUntil(() => !tree.running(), graceMs);
  tree.refresh(true); // whatever was started while shutting down
  for (const entry of tree.alive()) found.set(entry.pid, entry);
  tree.signal("SIGKILL");
  await waitUntil(() => !tree.running(), REAP_MS);
  const survivors = tree.alive();
  const killed = [...found.values()].filter((entry) => !survivors.some((survivor) => survivor.pid === entry.pid));
  return { killed, survivors, verified: tree.inspectable };
}

/** Why a watched command was stopped, and the report of its stopping once `stopped()` settles. */
interface StopWatch {
  readonly timedOut: boolean;
  readonly aborted: boolean;
  /** Ends the watch (the command exited) and waits for a stop already under way; undefined when none was. */
  release(): Promise<KillReport | undefined>;
}

/** Terminates `tree` when `timeoutMs` passes (if given) or `signal` aborts, whichever comes first. */
export function stopOnTimeoutOrAbort(tree: ProcessTree, signal: AbortSignal, timeoutMs?: number): StopWatch {
  const state = { timedOut: false, aborted: false };
  let stopping: Promise<KillReport> | undefined;
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          state.timedOut = true;
          stopping ??= terminate(tree);
        }, timeoutMs);
  const onAbort = () => {
    state.aborted = true;
    stopping ??= terminate(tree);
  };
  signal.addEventListener("abort", onAbort, { once: true });
  if (signal.aborted) onAbort();
  return {
    get timedOut() {
      return state.timedOut;
    },
    get aborted() {
      return state.aborted;
    },
    release: () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      return stopping ?? Promise.resolve(undefined);
    },
  };
}

/** Commands whose processes may still run: in flight, or left in the background; with what to clean up after them. */
const live = new Map<ProcessTree, (() => void) | undefined>();

function cleanUp(cleanup: (() => void) | undefined): void {
  try {
    cleanup?.();
  } catch {
    // Marvin is leaving or the command is over: what could not be removed stays, nothing else is at stake.
  }
}

function killAllNow(): void {
  for (const [tree, cleanup] of live) {
    tree.refresh(true);
    tree.signal("SIGKILL");
    cleanUp(cleanup);
  }
  live.clear();
}

/**
 * Keeps `tree` until its processes are gone; whatever is left of it is killed when Marvin exits. `cleanup`
 * (synchronous: it may run in an exit handler) runs once they are gone, e.g. to remove their temp folder.
 */
export function trackUntilExit(tree: ProcessTree, cleanup?: () => void): void {
  // 'exit' handlers run on every way out (process.exit, a second Ctrl+C); they must be synchronous.
  if (live.size === 0) process.once("exit", killAllNow);
  live.set(tree, cleanup);
}

/** Forgets a command none of whose processes runs any more, and cleans up after it. */
export function untrack(tree: ProcessTree): void {
  if (!live.has(tree)) return;
  const cleanup = live.get(tree);
  live.delete(tree);
  if (live.size === 0) process.off("exit", killAllNow);
  cleanUp(cleanup);
}

/** Stops every process that run_command calls left running (the session is ending): SIGTERM, then SIGKILL. */
export async function stopLiveCommands(): Promise<void> {
  const trees = [...live.keys()];
  await Promise.all(trees.map((tree) => terminate(tree)));
  for (const tree of trees) untrack(tree);
}
