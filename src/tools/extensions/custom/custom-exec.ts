import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { type ToolContext, ToolError } from "../../kit/define-tool.js";
import { HeadTailBuffer } from "../../kit/processes/head-tail-buffer.js";
import { runConfinedProgram } from "../../kit/sandbox/confined-program.js";
import { sandboxRefusal } from "../../kit/sandbox/refusal.js";

const DEFAULT_TIMEOUT_MS = 60_000;
/** Of each stream, the start and the end are kept; the middle of a longer one is cut (and says so). */
const HEAD_CHARS = 200_000;
const TAIL_CHARS = 800_000;

interface ExecOptions {
  /** Where the program runs: relative to the working dir (else the home); default the working dir. */
  cwd?: string;
  /** Stopped with all it started after this long; default 60000. */
  timeoutMs?: number;
  /** Written to its stdin; without it, stdin is empty. */
  input?: string;
}

interface ExecResult {
  stdout: string;
  stderr: string;
  /** null when it was killed (`signal`) or stopped (`timedOut`, cancelled). */
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** When the sandbox made it fail: one line saying what it refused, to pass on to the model. */
  sandbox?: string;
}

/** `ctx.exec`: what a custom tool uses to start a program. */
type Exec = (command: string, args?: readonly string[], options?: ExecOptions) => Promise<ExecResult>;

function checked(command: unknown, args: unknown): [string, ...string[]] {
  if (typeof command !== "string" || !command)
    throw new ToolError("ctx.exec needs the program to run as a non-empty string.");
  if (!Array.isArray(args) || args.some((arg) => typeof arg !== "string"))
    throw new ToolError("ctx.exec takes the program's arguments as an array of strings (no shell).");
  return [command, ...args];
}

/**
 * The exec helper of one custom tool call: runs a program (no shell) as run_command runs a command —
 * in the sandbox (only the working dir and a private TMPDIR writable, secrets hidden, no network unless
 * allowed), without credentials in its environment, stopped with everything it started on time-out or
 * cancel.
 */
function execFor(context: ToolContext): Exec {
  return async (command, args = [], options = {}) => {
    const argv = checked(command, args);
    const cwd = resolve(context.workingDir ?? context.home, options.cwd ?? ".");
    if (!existsSync(cwd)) throw new ToolError(`ctx.exec: the folder ${cwd} does not exist.`);
    const stdout = new HeadTailBuffer(HEAD_CHARS, TAIL_CHARS);
    const stderr = new HeadTailBuffer(HEAD_CHARS, TAIL_CHARS);
    const result = await runConfinedProgram({
      argv,
      cwd,
      places: { env: context.env, home: context.home, writableRoot: context.workingDir },
      signal: context.signal,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      ...(options.input === undefined ? {} : { stdin: options.input }),
      onStdout: (text) => stdout.append(text),
      onStderr: (text) => stderr.append(text),
    });
    const failed = result.exitCode !== 0 && !result.timedOut && !result.aborted;
    const refusal =
      failed && result.layout
        ? sandboxRefusal(argv.join(" "), stdout.text() + stderr.text(), result.layout, context.home)
        : undefined;
    return {
      stdout: stdout.text(),
      stderr: stderr.text(),
      exitCode: result.exitCode,
      signal: result.signal,
      timedOut: result.timedOut,
      ...(refusal ? { sandbox: refusal.line } : {}),
    };
  };
}

/** `context` with `exec` added, every other member still the session's own. */
export function withExec(context: ToolContext): ToolContext & { exec: Exec } {
  return Object.assign(Object.create(context) as ToolContext, { exec: execFor(context) });
}
