import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import type { Env } from "../../providers/config.js";

/** Output beyond this many characters is dropped (with a note) so a runaway command cannot flood the UI. */
export const SHELL_OUTPUT_LIMIT = 200_000;

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
  onOutput: (chunk: string) => void;
}

function shellProgram(): string {
  return ["/bin/bash", "/usr/bin/bash"].find((path) => existsSync(path)) ?? "/bin/sh";
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGTERM");
  } catch {
    // already gone
  }
}

/**
 * Runs one line as the person typed it, in bash (sh when bash is missing), with stdin closed.
 * Output streams to `onOutput` as it arrives. Aborting `signal` kills the whole process group.
 */
export function runShellCommand(command: string, options: ShellRunOptions): Promise<ShellRun> {
  return new Promise((resolve) => {
    let shown = 0;
    let interrupted = false;
    const child = spawn(shellProgram(), ["-c", command], {
      cwd: options.cwd,
      env: options.env as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    const onData = (data: string) => {
      if (shown >= SHELL_OUTPUT_LIMIT) return;
      const part = data.slice(0, SHELL_OUTPUT_LIMIT - shown);
      shown += part.length;
      options.onOutput(part);
      if (shown >= SHELL_OUTPUT_LIMIT) options.onOutput(`\n[… output cut after ${SHELL_OUTPUT_LIMIT} characters]\n`);
    };
    child.stdout.setEncoding("utf8").on("data", onData);
    child.stderr.setEncoding("utf8").on("data", onData);
    const onAbort = () => {
      interrupted = true;
      killGroup(child.pid);
    };
    options.signal.addEventListener("abort", onAbort, { once: true });
    child.on("error", (error) => {
      options.signal.removeEventListener("abort", onAbort);
      resolve({ code: null, interrupted, spawnError: error.message });
    });
    child.on("close", (code) => {
      options.signal.removeEventListener("abort", onAbort);
      resolve({ code, interrupted });
    });
  });
}
