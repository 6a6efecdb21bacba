import { spawn } from "node:child_process";
import { ToolError } from "../define-tool.js";
import { HeadTailBuffer } from "./head-tail-buffer.js";

/** After SIGTERM, how long the group gets before SIGKILL. */
const KILL_GRACE_MS = 1_000;
/** After the shell exits, how long to wait for background processes to release its output. */
const LINGER_MS = 300;

export interface GroupRunOptions {
  command: string;
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  signal: AbortSignal;
  headChars: number;
  tailChars: number;
}

export interface GroupRunResult {
  /** stdout and stderr interleaved, head and tail kept. */
  output: string;
  /** Characters cut from the middle of the output. */
  cut: number;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  /** The shell exited but processes it started in the background still hold its output. */
  lingering: boolean;
  elapsedMs: number;
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is already gone
  }
}

/**
 * Runs `command` with `bash -c` as the leader of a new process group (no terminal, stdin
 * from /dev/null). A timeout or abort signals the whole group (children and grandchildren):
 * SIGTERM, then SIGKILL after a grace period.
 */
export function runInProcessGroup(options: GroupRunOptions): Promise<GroupRunResult> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const buffer = new HeadTailBuffer(options.headChars, options.tailChars);
    // exec 2>&1 merges stderr into stdout inside the shell, so their order is exact.
    const child = spawn("bash", ["-c", `exec 2>&1\n${options.command}`], { cwd: options.cwd, env: options.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let timedOut = false;
    let aborted = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let lingerTimer: NodeJS.Timeout | undefined;
    let settled = false;

    const stop = () => {
      killGroup(child.pid, "SIGTERM");
      setTimeout(() => killGroup(child.pid, "SIGKILL"), KILL_GRACE_MS).unref();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutMs);
    const onAbort = () => {
      aborted = true;
      stop();
    };
    options.signal.addEventListener("abort", onAbort, { once: true });
    if (options.signal.aborted) onAbort();

    const finish = (lingering: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(lingerTimer);
      options.signal.removeEventListener("abort", onAbort);
      if (lingering) {
        child.stdout?.destroy();
        child.stderr?.destroy();
      }
      resolve({ output: buffer.text(), cut: buffer.cut, exitCode: exit?.code ?? null, signal: exit?.signal ?? null, timedOut, aborted, lingering, elapsedMs: Date.now() - started });
    };

    child.stdout?.setEncoding("utf8").on("data", (text: string) => buffer.append(text));
    child.stderr?.setEncoding("utf8").on("data", (text: string) => buffer.append(text));
    child.on("error", (error: NodeJS.ErrnoException) => {
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener("abort", onAbort);
      reject(error.code === "ENOENT" ? new ToolError("bash is not installed (or not on PATH), so commands cannot run. Install bash, or ask the user to run the command.") : new ToolError(`The command could not be started: ${error.message}`));
    });
    child.on("exit", (code, signal) => {
      exit = { code, signal };
      // A clean exit may leave `cmd &` children holding the output; a process that left the
      // group (setsid) may survive the kill. Either way, stop waiting for it.
      lingerTimer = setTimeout(() => finish(true), timedOut || aborted ? KILL_GRACE_MS + LINGER_MS : LINGER_MS);
    });
    child.on("close", () => finish(false));
  });
}
