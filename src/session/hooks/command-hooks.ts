import { spawn } from "node:child_process";
import { z } from "zod";
import { toolChildEnv } from "../../shared/child-env.js";
import type { Env } from "../../shared/env.js";
import { errorMessage } from "../../shared/error-message.js";
import { readStateText } from "../../state/atomic-file.js";
import type { HookDispatcher } from "./hook-dispatcher.js";
import { HOOK_EVENT_TYPES, type HookAnswer, type HookEvent, type HookEventType } from "./hook-events.js";

const DEFAULT_TIMEOUT_SECONDS = 30;
const OUTPUT_LIMIT = 64 * 1024;
/** The exit code that blocks a tool call (or marks its result an error), as in Claude Code. */
const BLOCKING_EXIT = 2;

/** Event names of Claude Code's settings, accepted for the same moments. */
const EVENT_ALIASES: Record<string, HookEventType> = {
  PreToolUse: "tool.execute.before",
  PostToolUse: "tool.execute.after",
  SessionStart: "session.start",
  UserPromptSubmit: "agent.start",
  Stop: "agent.end",
};

const commandEntry = z.object({ command: z.string().min(1), timeout: z.number().positive().optional() });
/** `{ matcher, command, timeout }`, or Claude Code's `{ matcher, hooks: [{ type: "command", command, timeout }] }`. */
const matcherEntry = z.object({
  matcher: z.string().optional(),
  command: z.string().min(1).optional(),
  timeout: z.number().positive().optional(),
  hooks: z.array(commandEntry.extend({ type: z.string().optional() })).optional(),
});
const settingsFile = z.object({ hooks: z.record(z.string(), z.array(matcherEntry)) });

interface CommandHookPlaces {
  settingsPath: string;
  cwd: string;
  env: Env;
}

/** Output of a finished hook command. */
interface CommandRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command` with sh, the event as JSON on stdin; on timeout the whole process group is killed. */
function runHookCommand(command: string, input: string, places: CommandHookPlaces, timeoutMs: number) {
  return new Promise<CommandRun>((resolve, reject) => {
    const child = spawn("sh", ["-c", command], {
      cwd: places.cwd,
      env: toolChildEnv(places.env),
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout = (stdout + chunk).slice(0, OUTPUT_LIMIT)));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-OUTPUT_LIMIT)));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // Already gone.
      }
      reject(new Error(`did not finish within ${timeoutMs / 1000} s and was stopped`));
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    // A command that does not read its stdin closes the pipe early: that is fine.
    child.stdin.on("error", () => undefined);
    child.stdin.end(input);
  });
}

/** A JSON answer on stdout: ours (`block`, `reason`, `result`, `isError`) or Claude Code's `decision: "block"`. */
function answerFromStdout(stdout: string): HookAnswer | undefined {
  const text = stdout.trim();
  if (!text.startsWith("{")) return undefined;
  try {
    const parsed = JSON.parse(text) as HookAnswer & { decision?: string };
    return parsed.decision === "block" ? { ...parsed, block: true } : parsed;
  } catch {
    return undefined;
  }
}

function answerOf(run: CommandRun, event: HookEvent): HookAnswer | undefined {
  if (run.code === 0) return answerFromStdout(run.stdout);
  const said = run.stderr.trim();
  if (run.code === BLOCKING_EXIT && event.type === "tool.execute.before") return { block: true, reason: said };
  if (run.code === BLOCKING_EXIT && event.type === "tool.execute.after") return { result: said, isError: true };
  throw new Error(
    `exited with code ${run.code ?? "(killed)"}${said ? `: ${said.split("\n").slice(-3).join(" ")}` : ""}`,
  );
}

/** The JSON a command reads: the event with `cwd`, plus Claude Code's field names for tool events. */
function stdinFor(event: HookEvent, cwd: string): string {
  const claude = "tool" in event ? { tool_name: event.tool, tool_input: event.arguments } : {};
  return JSON.stringify({ ...event, cwd, ...claude });
}

function matcherOf(pattern: string | undefined): RegExp | undefined {
  if (!pattern || pattern === "*") return undefined;
  return new RegExp(`^(?:${pattern})$`);
}

/**
 * Loads the command hooks of `~/.config/local-finder/hooks.json`: each event maps to entries
 * `{ matcher, command, timeout }` (seconds). A command gets the event as JSON on stdin; exit 0 lets
 * the call go on (a JSON answer on stdout may block or rewrite), exit 2 blocks with stderr as the
 * reason, anything else is a failure (which blocks a call it was to check; see HookDispatcher).
 * Returns problems to show.
 */
export async function loadCommandHooks(dispatcher: HookDispatcher, places: CommandHookPlaces): Promise<string[]> {
  const read = await readStateText(places.settingsPath);
  if ("problem" in read) return [`${places.settingsPath}: ${read.problem}; no command hook runs.`];
  if (read.value === undefined) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(read.value);
  } catch (error) {
    return [`${places.settingsPath} is not valid JSON (${errorMessage(error)}); no command hook runs.`];
  }
  const settings = settingsFile.safeParse(raw);
  if (!settings.success)
    return [
      `${places.settingsPath} must look like {"hooks": {"tool.execute.before": [{"matcher": …, "command": …}]}}.`,
    ];
  const problems: string[] = [];
  for (const [name, entries] of Object.entries(settings.data.hooks)) {
    const type = EVENT_ALIASES[name] ?? (name as HookEventType);
    if (!HOOK_EVENT_TYPES.includes(type)) {
      problems.push(`${places.settingsPath}: '${name}' is not an event (${HOOK_EVENT_TYPES.join(", ")}).`);
      continue;
    }
    for (const entry of entries) {
      let matcher: RegExp | undefined;
      try {
        matcher = matcherOf(entry.matcher);
      } catch (error) {
        problems.push(`${places.settingsPath}: matcher '${entry.matcher}' is not a pattern (${errorMessage(error)}).`);
        continue;
      }
      const commands = entry.hooks ?? (entry.command ? [{ command: entry.command, timeout: entry.timeout }] : []);
      for (const { command, timeout } of commands) {
        const timeoutMs = (timeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000;
        dispatcher.add(type, {
          label: `command hook \`${command}\``,
          ...(matcher ? { matcher } : {}),
          // The dispatcher's own limit is a backstop: the command is killed first.
          timeoutMs: timeoutMs + 1_000,
          run: async (event) =>
            answerOf(await runHookCommand(command, stdinFor(event, places.cwd), places, timeoutMs), event),
        });
      }
    }
  }
  return problems;
}
