import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import type { Env } from "../../shared/env.js";

/** Output beyond this many characters is dropped (with a note) so a runaway command cannot flood the UI. */
const SHELL_OUTPUT_LIMIT = 200_000;

export interface ShellRun {
  /** Exit code; null when the command was stopped by a signal. */
  code: number | null;
  interrupted: boolean;
  /** The shell could not be started at all. */
  spawnError?: string;
}

export interface ShellRunOptions {
  cwd: string;
  env: Env;
  signal: AbortSignal;
}

interface CapturedShellRunOptions extends ShellRunOptions {
  onOutput: (chunk: string) => void;
}

function shellProgram(): string {
  return ["/bin/bash", "/usr/bin/bash"].find((path) => existsSync(path)) ?? "/bin/sh";
}

function spawnShell(command: string, options: ShellRunOptions, terminal: boolean): ChildProcess {
  return spawn(shellProgram(), ["-c", command], {
    cwd: options.cwd,
    env: options.env as NodeJS.ProcessEnv,
    stdio: terminal ? "inherit" : ["ignore", "pipe", "pipe"],
    detached: !terminal,
  });
}

/** Settles when the child is gone; aborting `signal` calls `stop` and marks the run interrupted. */
function finished(child: ChildProcess, signal: AbortSignal, stop: () => void): Promise<ShellRun> {
  return new Promise((resolve) => {
    let interrupted = false;
    const onAbort = () => {
      interrupted = true;
      stop();
    };
    signal.addEventListener("abort", onAbort, { once: true });
    child.on("error", (error) => {
      signal.removeEventListener("abort", onAbort);
      resolve({ code: null, interrupted, spawnError: error.message });
    });
    child.on("close", (code, killedBy) => {
      signal.removeEventListener("abort", onAbort);
      resolve({ code, interrupted: interrupted || killedBy === "SIGINT" });
    });
  });
}

/**
 * Runs one line as the person typed it, in bash (sh when bash is missing), with stdin closed,
 * in a process group of its own. Output streams to `onOutput` as it arrives. Aborting `signal`
 * kills the whole group.
 */
export function runShellCommand(command: string, options: CapturedShellRunOptions): Promise<ShellRun> {
  const child = spawnShell(command, options, false);
  let shown = 0;
  const onData = (data: string) => {
    if (shown >= SHELL_OUTPUT_LIMIT) return;
    const part = data.slice(0, SHELL_OUTPUT_LIMIT - shown);
    shown += part.length;
    options.onOutput(part);
    if (shown >= SHELL_OUTPUT_LIMIT) options.onOutput(`\n[… output cut after ${SHELL_OUTPUT_LIMIT} characters]\n`);
  };
  child.stdout!.setEncoding("utf8").on("data", onData);
  child.stderr!.setEncoding("utf8").on("data", onData);
  return finished(child, options.signal, () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGTERM");
    } catch {
      // already gone
    }
  });
}

/**
 * Runs one line on Marvin's own terminal, so interactive programs (vim, less, a REPL) work:
 * stdin, stdout and stderr are the terminal's, and the command stays in Marvin's foreground
 * process group, so it reads the keys and receives Ctrl+C itself. Aborting `signal` (Marvin
 * is leaving) ends it with SIGTERM.
 */
export function runShellCommandOnTerminal(command: string, options: ShellRunOptions): Promise<ShellRun> {
  const child = spawnShell(command, options, true);
  return finished(child, options.signal, () => child.kill("SIGTERM"));
}
