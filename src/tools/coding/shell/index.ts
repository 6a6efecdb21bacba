import { existsSync } from "node:fs";
import { z } from "zod";
import { toolChildEnv } from "../../../shared/child-env.js";
import { formatDuration } from "../../../shared/duration.js";
import type { ToolContext } from "../../kit/define-tool.js";
import { defineTool, ToolError } from "../../kit/define-tool.js";
import type { KillReport } from "../../kit/processes/live-commands.js";
import type { ProcessEntry } from "../../kit/processes/process-tree.js";
import { requireWorkingDir } from "../../kit/require-working-dir.js";
import { commandSandbox, type SandboxedLaunch } from "../../kit/sandbox/command-sandbox.js";
import { sandboxRefusal } from "../../kit/sandbox/refusal.js";
import type { UnconfinedAnswer } from "../../kit/tool-services.js";
import { outputProgress } from "./output-progress.js";
import { type GroupRunResult, runInProcessGroup } from "./process-group.js";

/** Output kept: the start (what ran) and, mostly, the end (errors, summaries). */
const HEAD_CHARS = 8_000;
const TAIL_CHARS = 22_000;
/** The registry's limit is the command's own plus time for the person to confirm. */
const CONFIRMATION_ALLOWANCE_MS = 10 * 60_000;
/** Processes named in a message; the rest are counted. */
const MAX_NAMED = 5;

function processList(entries: ProcessEntry[]): string {
  const named = entries
    .slice(0, MAX_NAMED)
    .map((entry) => `pid ${entry.pid} (${entry.name})`)
    .join(", ");
  return entries.length > MAX_NAMED ? `${named} and ${entries.length - MAX_NAMED} more` : named;
}

/** What a kill achieved, claiming no more than was checked. */
function killOutcome(kill: KillReport | undefined): string {
  if (!kill?.verified) {
    return (
      "the command's process group was killed; processes that left the group (setsid, daemons) cannot be " +
      "checked on this system and may still be running"
    );
  }
  const { killed, survivors } = kill;
  if (survivors.length) {
    const which = survivors.length === 1 ? "this one" : "these";
    return (
      `${killed.length} of its ${killed.length + survivors.length} processes were killed, but ${which} could ` +
      `not be stopped and may still be running: ${processList(survivors)}`
    );
  }
  if (killed.length === 0) return "the command had already ended";
  const counted = killed.length === 1 ? "process" : `${killed.length} processes`;
  return `killed the command's ${counted} (every one Marvin found); none is still running`;
}

function statusLine(result: GroupRunResult, timeoutSeconds: number): string {
  const took = formatDuration(result.elapsedMs);
  if (result.timedOut) {
    return (
      `Timed out after ${timeoutSeconds}s: ${killOutcome(result.kill)}. Raise timeout (seconds) if it needs ` +
      `longer, or run it in the background with output to a file.`
    );
  }
  if (result.aborted) return `Cancelled after ${took}: ${killOutcome(result.kill)}.`;
  if (result.signal) return `Killed by ${result.signal} after ${took}.`;
  return `Exit code: ${result.exitCode} (${took})`;
}

function backgroundNote({ background, lingering }: GroupRunResult): string | undefined {
  const uncaptured = "its output is not captured. Redirect it to a file (cmd > out.log 2>&1 &) to see it.";
  if (background.length) {
    const pronoun = background.length === 1 ? "it" : "them";
    return (
      `Note: still running in the background: ${processList(background)}. Marvin stops ${pronoun} when it ` +
      `exits${lingering ? `; ${uncaptured}` : "."}`
    );
  }
  if (lingering) return `Note: a process the command started in the background is still running and ${uncaptured}`;
  return undefined;
}

/** The model's view of one run: status line, output, background note. */
function describe(result: GroupRunResult, timeoutSeconds: number): string {
  const parts = [statusLine(result, timeoutSeconds)];
  if (result.cut)
    parts.push(`(output was ${result.cut + HEAD_CHARS + TAIL_CHARS} characters; the middle ${result.cut} were cut)`);
  parts.push(result.output.trim() ? result.output.replace(/\s+$/, "") : "(no output)");
  const note = backgroundNote(result);
  if (note) parts.push(note);
  return parts.join("\n");
}

/** Why the person is asked whether to run a command outside the sandbox. */
const SANDBOX_FAILED = "it failed before the command started";

/** The advice to the model when the sandbox had a part in a failed run, judged from its output. */
function refusalOf(result: GroupRunResult, command: string, launch: SandboxedLaunch, home: string) {
  if (result.timedOut || result.aborted || result.exitCode === 0) return undefined;
  return sandboxRefusal(command, result.output, launch.layout, home);
}

async function runOnce(command: string, cwd: string, timeout: number, context: ToolContext, launch?: SandboxedLaunch) {
  const progress = outputProgress((update) => context.onProgress(update));
  const env = toolChildEnv(context.env);
  const result = await runInProcessGroup({
    command,
    cwd,
    env: launch ? launch.environment(env) : env,
    timeoutMs: timeout * 1000,
    signal: context.signal,
    headChars: HEAD_CHARS,
    tailChars: TAIL_CHARS,
    onOutput: progress.push,
    ...(launch
      ? {
          sandbox: { program: launch.program, prefix: launch.prefix, reportsStart: launch.reportsStart },
          // Background jobs may still use the private temp folder: it goes once they are gone.
          cleanup: launch.disposeNow,
        }
      : {}),
  });
  progress.flush();
  return result;
}

/** What run_command says when no sandbox works and the command may not run unconfined; undefined when it may. */
function unconfinedRefusal(answer: UnconfinedAnswer, missing: string): string | undefined {
  if (answer === "declined")
    return (
      `The user did not allow commands to run without a sandbox (${missing}). Do not run commands; ask the user ` +
      "what to do instead."
    );
  if (answer === "nobody-to-ask")
    throw new ToolError(
      `Commands are refused: no sandbox works (${missing}), and no one can be asked to let them run unconfined. ` +
        "Tell the user to install it, or to set MARVIN_SANDBOX=off to run commands unconfined; do not retry.",
    );
  return undefined;
}

const runCommand = defineTool({
  name: "run_command",
  effect: "write",
  description:
    "Run a shell command (bash -c) in the working dir; returns its exit code and output " +
    "(stdout and stderr interleaved, long output cut in the middle). The user may be asked to confirm. " +
    "No terminal or stdin: pass flags like --yes. It is killed with all it started after timeout seconds; " +
    "background jobs (cmd > out.log 2>&1 &) run until Marvin exits.",
  codingOnly: true,
  timeoutMs: (args) => args.timeout * 1000 + CONFIRMATION_ALLOWANCE_MS,
  parameters: z.object({
    command: z.string().trim().min(1).describe("e.g. 'npm test' or 'ls -la src'"),
    timeout: z.number().int().min(1).max(3600).default(60).describe("Seconds before the command is killed"),
  }),
  handler: async ({ command, timeout }, context) => {
    const cwd = requireWorkingDir(context);
    if (!existsSync(cwd))
      throw new ToolError(`The working dir ${cwd} no longer exists. Call set_working_dir with an existing directory.`);
    const placement = await commandSandbox({ env: context.env, home: context.home, cwd, writableRoot: cwd });
    const launch = "launch" in placement ? placement.launch : undefined;
    if ("missing" in placement) {
      const refusal = unconfinedRefusal(await context.approvals.unconfined(placement.missing), placement.missing);
      if (refusal) return refusal;
    }
    let ran = false;
    try {
      if (!(await context.approvals.command(command, launch !== undefined))) {
        return (
          `The user declined to run this command: ${command}\nDo not run it again; ask the user what to do ` +
          `instead, or take another approach.`
        );
      }
      const result = await runOnce(command, cwd, timeout, context, launch);
      ran = true; // from here on the temp folder goes with the command's last process
      const planted = await launch?.removePlantedGitControls();
      // Only the sandbox program's own word opens the question, never what the command printed.
      if (result.sandboxFailed && (await context.approvals.rerunOutsideSandbox(command, SANDBOX_FAILED))) {
        const outside = await runOnce(command, cwd, timeout, context);
        return `Ran again outside the sandbox: the user allowed it (${SANDBOX_FAILED}).\n${describe(outside, timeout)}`;
      }
      const said = planted ? `${describe(result, timeout)}\n${planted}` : describe(result, timeout);
      const refusal = launch && refusalOf(result, command, launch, context.home);
      return refusal ? `${said}\n${refusal.line}` : said;
    } finally {
      if (launch && !ran) await launch.dispose();
    }
  },
});

/** The shell domain (seed 000 §2.8). */
export const shellTools = [runCommand];
