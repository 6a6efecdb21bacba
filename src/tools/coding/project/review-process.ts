import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { formatDuration } from "../../../shared/duration.js";
import type { Env } from "../../../shared/env.js";
import type { BackgroundJob } from "../../kit/tool-services.js";
import { childMarvinEnv } from "../agents/child-marvin.js";
import type { ReviewRecord } from "./review-record.js";

/** Reviews may nest this deep at most: a reviewer at this depth may not start another. */
export const MAX_REVIEW_DEPTH = 2;

/** The LLM a reviewer talks to. */
interface ReviewerLlm {
  provider: string;
  model: string;
}

/**
 * The reviewer uses the parent's provider, so it never has to choose among several configured
 * ones, and the parent's model, unless MARVIN_CODE_MODEL_HIGH (the review tier) is set.
 */
export function reviewerLlm(env: Env, parent: { name: string; model: string }): ReviewerLlm {
  return { provider: parent.name, model: env.MARVIN_CODE_MODEL_HIGH?.trim() || parent.model };
}

/** The reviewer's environment: a child Marvin's (only the parent provider's key), read-only. */
export function reviewerEnv(env: Env, credentialVariables: readonly string[]): Record<string, string> {
  return childMarvinEnv(env, credentialVariables, { readOnly: true });
}

/**
 * A review running as a detached `marvin --non-interactive` process. It outlives the
 * session on purpose (its output lands in .marvin/reviews/), so cancel() only stops
 * watching it: the process is neither signalled nor waited for.
 */
export class ReviewJob implements BackgroundJob {
  readonly id: string;
  readonly description: string;
  private exit: { code: number | null; signal: string | null; at: number } | undefined;
  private startError: string | undefined;

  constructor(
    readonly record: ReviewRecord,
    private readonly child: ChildProcess,
    private readonly now: () => number = Date.now,
  ) {
    this.id = record.id;
    this.description = `code review of ${record.directory} (focus: ${record.focus})`;
    child.once("exit", (code, signal) => (this.exit = { code, signal, at: this.now() }));
    child.once("error", (error) => {
      this.startError = error.message;
      this.exit ??= { code: null, signal: null, at: this.now() };
    });
  }

  get running(): boolean {
    return this.exit === undefined;
  }

  status(): string {
    const started = Date.parse(this.record.startedAt);
    if (this.startError) return `failed to start: ${this.startError}`;
    if (!this.exit) return `running for ${formatDuration(this.now() - started)} (pid ${this.record.pid})`;
    const took = formatDuration(this.exit.at - started);
    if (this.exit.code === 0) return `finished after ${took} (exit 0)`;
    return `failed after ${took} (${this.exit.signal ? `killed by ${this.exit.signal}` : `exit ${this.exit.code}`})`;
  }

  cancel(): void {
    this.child.removeAllListeners();
    this.child.on("error", () => undefined); // an unheard 'error' event would crash the process
  }
}

interface ReviewLaunch {
  entryPoint: string;
  id: string;
  directory: string;
  focus: string;
  prompt: string;
  outputFile: string;
  logFile: string;
  llm: ReviewerLlm;
  env: Record<string, string>;
  now: Date;
  /** Called once the reviewer has exited (while the session still watches it). */
  onExit?: () => void;
}

/** Starts the detached reviewer: stdout to the output file, stderr to the log file. */
export function launchReview(launch: ReviewLaunch): ReviewJob {
  // "wx": a fresh file, never one (or a symlink) already lying there.
  const output = openSync(launch.outputFile, "wx");
  let log: number | undefined;
  let child: ChildProcess;
  try {
    const { provider, model } = launch.llm;
    const args = [
      "--non-interactive",
      "--working-dir",
      launch.directory,
      "--provider",
      provider,
      "--model",
      model,
      "--prompt",
      launch.prompt,
    ];
    log = openSync(launch.logFile, "wx");
    child = spawn(process.execPath, [launch.entryPoint, ...args], {
      cwd: launch.directory,
      env: launch.env,
      detached: true,
      stdio: ["ignore", output, log],
    });
  } finally {
    closeSync(output);
    if (log !== undefined) closeSync(log);
  }
  child.unref();
  if (launch.onExit) child.once("exit", launch.onExit);
  const record: ReviewRecord = {
    id: launch.id,
    pid: child.pid ?? -1,
    directory: launch.directory,
    focus: launch.focus,
    startedAt: launch.now.toISOString(),
    outputFile: launch.outputFile,
    logFile: launch.logFile,
  };
  return new ReviewJob(record, child);
}
