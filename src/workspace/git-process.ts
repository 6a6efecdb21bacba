import { spawn } from "node:child_process";
import { ToolError } from "../shared/tool-error.js";

/** What a git run gave: a non-zero exit is an answer, not an error. */
export interface GitRun {
  code: number;
  stdout: string;
  stderr: string;
}

interface GitProcessOptions {
  /** Arguments before the subcommand: safety settings (`-c …`), `--work-tree=…`. */
  before?: readonly string[];
  cwd?: string;
  /** The whole environment of the child: callers decide which variables git may see. */
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  /** Sees stderr as it comes (clone progress). */
  onStderr?: (chunk: string) => void;
  /** Past this many bytes of stdout git is stopped and the run fails with a hint to narrow it down. */
  maxOutputBytes?: number;
}

const DEFAULT_MAX_OUTPUT = 64 * 1024 * 1024;

export const GIT_MISSING =
  "git is not installed (or not on PATH). Install it (Debian/Ubuntu: `sudo apt install git`), then try again.";

/**
 * Runs `git <before> args` and resolves with its exit code and output. The one place Marvin starts git, so that
 * every tool reports the same failures the same way (git missing, cancelled, killed, printing too much), each
 * naming the subcommand, `args[0]`.
 */
export function runGitProcess(args: readonly string[], options: GitProcessOptions): Promise<GitRun> {
  const subcommand = args[0] ?? "";
  const argv = [...(options.before ?? []), ...args];
  const maxOutput = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  return new Promise((resolve, reject) => {
    const child = spawn("git", argv, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
      signal: options.signal,
    });
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = "";
    let tooMuch = false;
    child.stdout.on("data", (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes <= maxOutput) stdout.push(chunk);
      else if (!tooMuch) {
        tooMuch = true;
        child.kill();
      }
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      options.onStderr?.(chunk);
    });
    child.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") reject(new ToolError(GIT_MISSING));
      else if (error.name === "AbortError") reject(new ToolError(`git ${subcommand} was cancelled.`));
      else reject(new ToolError(`git ${subcommand} could not run: ${error.message}`));
    });
    child.on("close", (code) => {
      if (options.signal.aborted) return reject(new ToolError(`git ${subcommand} was cancelled.`));
      if (tooMuch) {
        const limit = maxOutput >= 1024 * 1024 ? `${Math.round(maxOutput / 1024 / 1024)} MB` : `${maxOutput} bytes`;
        const hint = "Narrow it down (a path, fewer commits, a line range).";
        return reject(new ToolError(`git ${subcommand} printed more than ${limit}. ${hint}`));
      }
      if (code === null) return reject(new ToolError(`git ${subcommand} was killed before it finished.`));
      resolve({ code, stdout: Buffer.concat(stdout).toString("utf8"), stderr });
    });
  });
}
