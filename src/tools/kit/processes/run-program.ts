import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { raceTimeLimit } from "../../../shared/time-limit.js";
import { type KillReport, stopOnTimeoutOrAbort, terminate, trackUntilExit, untrack } from "./live-commands.js";
import { ProcessTree } from "./process-tree.js";

/** Set in the program's environment: every process it starts inherits it, so even those that leave its group are found. */
const PROGRAM_MARKER_VARIABLE = "MARVIN_PROGRAM_ID";
/** How often the program's processes are looked up while it runs. */
const SNAPSHOT_MS = 500;
/** After the program exits, how long to wait for its output pipes to close. */
const LINGER_MS = 300;

export interface ProgramRun {
  /** The program and its arguments, started directly: never through a shell. */
  argv: readonly [string, ...string[]];
  cwd: string;
  env: Record<string, string>;
  signal: AbortSignal;
  timeoutMs?: number;
  /** Written to its stdin, which is then closed; without it, stdin is /dev/null. */
  stdin?: string;
  onStdout(text: string): void;
  onStderr(text: string): void;
}

export interface ProgramResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  /** After a timeout or abort: what stopping it achieved. */
  kill?: KillReport;
  elapsedMs: number;
}

/** Resolves once the program has started; rejects with the spawn error (`code` ENOENT: not installed). */
function started(child: ReturnType<typeof spawn>): Promise<void> {
  return new Promise((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", reject);
  });
}

/**
 * Runs one program (no shell) as the leader of its own process group, with run_command's process
 * tracking: a timeout or an abort stops it and everything it started (SIGTERM, then SIGKILL), what it
 * leaves running when it exits is stopped too, and whatever still runs when Marvin exits is killed.
 */
export async function runProgram(run: ProgramRun): Promise<ProgramResult> {
  const startedAt = Date.now();
  const [file, ...args] = run.argv;
  const id = randomUUID();
  const child = spawn(file, args, {
    cwd: run.cwd,
    env: { ...run.env, [PROGRAM_MARKER_VARIABLE]: id },
    detached: true,
    stdio: [run.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
  });
  // A program that exits without reading all of its input must not crash Marvin with EPIPE.
  child.stdin?.on("error", () => undefined).end(run.stdin);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  child.stdout?.setEncoding("utf8").on("data", run.onStdout);
  child.stderr?.setEncoding("utf8").on("data", run.onStderr);
  await started(child);

  const tree = new ProcessTree(child.pid!, `${PROGRAM_MARKER_VARIABLE}=${id}`);
  trackUntilExit(tree);
  tree.refresh();
  const snapshots = setInterval(() => tree.refresh(), SNAPSHOT_MS);
  const stop = stopOnTimeoutOrAbort(tree, run.signal, run.timeoutMs);

  const exit = await exited;
  clearInterval(snapshots);
  const kill = await stop.release();
  if (
    !(await raceTimeLimit(
      closed.then(() => true),
      LINGER_MS,
      () => false,
    ))
  ) {
    child.stdout?.destroy();
    child.stderr?.destroy();
  }
  // A program is done when it exits: nothing it started may outlive it.
  tree.refresh(true);
  if (tree.running()) await terminate(tree);
  untrack(tree);
  return {
    exitCode: exit.code,
    signal: exit.signal,
    timedOut: stop.timedOut,
    aborted: stop.aborted,
    kill,
    elapsedMs: Date.now() - startedAt,
  };
}
