import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import { ToolError } from "../../kit/define-tool.js";
import { HeadTailBuffer } from "../../kit/processes/head-tail-buffer.js";
import { type KillReport, stopOnTimeoutOrAbort, trackUntilExit, untrack } from "../../kit/processes/live-commands.js";
import { openFiles, type ProcessEntry, ProcessTree, sandboxedPid } from "../../kit/processes/process-tree.js";

/** After the shell exits, how long to wait for background processes to release its output. */
const LINGER_MS = 300;
/** How often the command's processes are looked up while it runs (to keep track of those that leave its group). */
const SNAPSHOT_MS = 500;
/** Set in the command's environment: every process it starts inherits it, wherever it moves. */
const COMMAND_MARKER_VARIABLE = "MARVIN_COMMAND_ID";
/** The fd the sandbox program reports its status on (see sandboxFailed). */
const SANDBOX_STATUS_FD = 5;

interface GroupRunOptions {
  command: string;
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  signal: AbortSignal;
  headChars: number;
  tailChars: number;
  /** Told every piece of output as it arrives. */
  onOutput?: (text: string) => void;
  /**
   * Start the shell through this sandbox program and its arguments (bwrap, sandbox-exec); `reportsStart`:
   * it takes --json-status-fd (bwrap) to say whether it started the shell.
   */
  sandbox?: { program: string; prefix: string[]; reportsStart: boolean };
  /** Runs (synchronously) once nothing of the command runs any more, at the latest when Marvin exits. */
  cleanup?: () => void;
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
  /** After a timeout or abort: what the kill achieved. */
  kill?: KillReport;
  /** The shell exited, but processes it started are still running (Marvin stops them when it exits). */
  background: ProcessEntry[];
  /** The shell exited but something it started still holds its output, whether or not it could be identified. */
  lingering: boolean;
  elapsedMs: number;
  /** The sandbox program failed before it started the command (it said so itself, not the command's output). */
  sandboxFailed: boolean;
}

function started(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") return reject(new ToolError(`The command could not be started: ${error.message}`));
      reject(
        new ToolError(
          "bash is not installed (or not on PATH), so commands cannot run. Install bash, or ask the user to run " +
            "the command.",
        ),
      );
    });
  });
}

/** True when `promise` settles within `ms`. */
function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  return Promise.race([promise.then(() => true), expired]).finally(() => clearTimeout(timer));
}

/**
 * Inside bwrap's pid namespace everything dies with the shell, so the shell reports its exit
 * status on fd 3 and then stays, its output closed, while anything it started still runs: the
 * command returns at once and its background jobs live on, as outside the sandbox. Fd 4 is only
 * waited on (nothing is written to it), so the wait starts no process. The status goes out in the
 * EXIT trap, so `exit N` is reported too.
 */
const SANDBOXED_PREAMBLE = [
  `exec {__marvin_status}>&3 {__marvin_idle}<&4 3>&- 4>&- ${SANDBOX_STATUS_FD}>&-`,
  'trap \'printf "%s\\n" "$?" >&$__marvin_status; exec {__marvin_status}>&- >&- 2>&-; shopt -s nullglob; ' +
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash's ${#array[@]}, not a template.
    "while __marvin_pids=(/proc/[0-9]*); ((${#__marvin_pids[@]} > 2)); do read -rt 0.2 -u $__marvin_idle; done' EXIT",
].join("\n");

type Exit = { code: number | null; signal: NodeJS.Signals | null };

/** The text `stream` carries until it closes, or what came within `ms` after it was asked. */
function streamText(stream: Readable): () => Promise<string> {
  let text = "";
  const ended = new Promise<void>((resolve) => stream.once("close", resolve).once("end", resolve));
  stream.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
  return async () => {
    await within(ended, LINGER_MS);
    return text;
  };
}

/** The exit status the sandboxed shell reports on `stream` (see SANDBOXED_PREAMBLE); never settles without one. */
function reportedExit(stream: Readable): Promise<Exit> {
  return new Promise((resolve) => {
    let text = "";
    stream.setEncoding("utf8").on("data", (chunk: string) => {
      text += chunk;
      const line = /^(\d+)\n/.exec(text);
      if (line) resolve({ code: Number(line[1]), signal: null });
    });
  });
}

function spawnShell(options: GroupRunOptions, id: string): ChildProcess {
  const env = { ...options.env, [COMMAND_MARKER_VARIABLE]: id };
  // exec 2>&1 merges stderr into stdout inside the shell, so their order is exact.
  const script = `exec 2>&1\n${options.command}`;
  if (!options.sandbox) {
    return spawn("bash", ["-c", script], { cwd: options.cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  }
  const { program, prefix, reportsStart } = options.sandbox;
  const status = reportsStart ? ["--json-status-fd", String(SANDBOX_STATUS_FD)] : [];
  return spawn(program, [...status, ...prefix, "bash", "-c", `${SANDBOXED_PREAMBLE}\n${script}`], {
    cwd: options.cwd,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe", "pipe", "pipe", reportsStart ? "pipe" : "ignore"],
  });
}

/**
 * Whether bwrap failed before the command ran, from its own status (`--json-status-fd`): it reports
 * `exit-code` only for a command it started, once that ended. The shell's own report on fd 3 also shows
 * that it ran (bwrap then still waits for the command's background jobs).
 */
async function sandboxFailed(status: (() => Promise<string>) | undefined, shellReported: boolean): Promise<boolean> {
  if (!status || shellReported) return false;
  return !/"exit-code"\s*:\s*\d+/.test(await status());
}

/** Inside the sandbox, bwrap's init is pid 1, the shell it starts pid 2. */
const SANDBOX_INIT_PID = 1;
const SANDBOXED_SHELL_PID = 2;

/**
 * The command's own processes among `entries`, without the sandbox around them: bwrap (the leader)
 * and its init, and — once the shell has reported its exit — the shell waiting for its jobs. The init
 * is known by its parent, or while it still runs by its pid inside (when bwrap exits first it is
 * re-parented for a moment).
 */
function commandProcesses(entries: ProcessEntry[], leader: number, shellDone: boolean): ProcessEntry[] {
  const init = entries.find((entry) => entry.ppid === leader)?.pid;
  return entries.filter((entry) => {
    if (entry.pid === leader || entry.pid === init) return false;
    const inside = sandboxedPid(entry.pid);
    return inside !== SANDBOX_INIT_PID && !(shellDone && inside === SANDBOXED_SHELL_PID);
  });
}

function reportedKill(kill: KillReport | undefined, tree: ProcessTree, sandboxed: boolean): KillReport | undefined {
  if (!kill || !sandboxed) return kill;
  return {
    ...kill,
    killed: commandProcesses(kill.killed, tree.leader, false),
    survivors: commandProcesses(kill.survivors, tree.leader, false),
  };
}

/**
 * Runs `command` with `bash -c` as the leader of a new process group (no terminal, stdin
 * from /dev/null). A timeout or abort stops everything the command started — its group, and
 * on Linux also processes that left the group — with SIGTERM, then SIGKILL after a grace
 * period, and reports what could not be stopped or checked. Processes the command leaves
 * running in the background are kept track of and stopped when Marvin exits.
 */
export async function runInProcessGroup(options: GroupRunOptions): Promise<GroupRunResult> {
  const startedAt = Date.now();
  const buffer = new HeadTailBuffer(options.headChars, options.tailChars);
  const id = randomUUID();
  const child = spawnShell(options, id);
  const processExited = new Promise<Exit>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const statusPipe = child.stdio[3] as Readable | null | undefined;
  const shellExit = statusPipe ? reportedExit(statusPipe) : undefined;
  let shellReported = false;
  void shellExit?.then(() => (shellReported = true));
  const exited = shellExit ? Promise.race([processExited, shellExit]) : processExited;
  const sandboxStatus = options.sandbox?.reportsStart
    ? streamText((child.stdio as unknown as Readable[])[SANDBOX_STATUS_FD]!)
    : undefined;
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const append = (text: string) => {
    buffer.append(text);
    options.onOutput?.(text);
  };
  child.stdout?.setEncoding("utf8").on("data", append);
  child.stderr?.setEncoding("utf8").on("data", append);
  await started(child);

  const tree = new ProcessTree(child.pid!, `${COMMAND_MARKER_VARIABLE}=${id}`);
  // The pipes the command writes its output to, as /proc names them (bwrap holds them from the start).
  const outputPipes = options.sandbox ? openFiles(child.pid!, [1, 2]) : [];
  trackUntilExit(tree, options.cleanup);
  tree.refresh();
  const snapshots = setInterval(() => tree.refresh(), SNAPSHOT_MS);
  const stop = stopOnTimeoutOrAbort(tree, options.signal, options.timeoutMs);

  const exit = await exited;
  const failed = await sandboxFailed(sandboxStatus, shellReported);
  clearInterval(snapshots);
  const kill = reportedKill(await stop.release(), tree, options.sandbox !== undefined);
  // A clean exit may leave `cmd &` children holding the output: stop waiting for them.
  const outputClosed = await within(closed, LINGER_MS);
  if (!outputClosed) {
    child.stdout?.destroy();
    child.stderr?.destroy();
  }
  let background: ProcessEntry[] = [];
  if (!kill) {
    tree.refresh(true);
    background = options.sandbox ? commandProcesses(tree.alive(), tree.leader, true) : tree.alive();
  }
  // bwrap itself holds the output until the sandbox ends: ask whether a background job does.
  const lingering = options.sandbox
    ? !outputClosed && background.some((entry) => openFiles(entry.pid).some((file) => outputPipes.includes(file)))
    : !outputClosed;
  if (!tree.running()) untrack(tree);
  return {
    output: buffer.text(),
    cut: buffer.cut,
    exitCode: exit.code,
    signal: exit.signal,
    timedOut: stop.timedOut,
    aborted: stop.aborted,
    kill,
    background,
    lingering,
    elapsedMs: Date.now() - startedAt,
    // A sandbox stopped (time-out, cancel) or killed from outside did not fail to start.
    sandboxFailed: failed && !stop.timedOut && !stop.aborted && exit.signal === null,
  };
}
