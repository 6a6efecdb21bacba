import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { promisify } from "node:util";
import { MARVIN_BIN } from "./run-marvin.js";

const run = promisify(execFile);
let sequence = 0;

/** State and parent of a process from /proc/<pid>/stat (Linux), or undefined once it is gone. */
function processStat(pid: number): { state: string; parent: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const [state, parent] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { state: state!, parent: Number(parent) };
  } catch {
    return undefined;
  }
}

/** `root` and every process below it. */
function processTree(root: number): number[] {
  let all: number[];
  try {
    all = readdirSync("/proc")
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return [root]; // no /proc: wait for the pane's own process only
  }
  const tree = [root];
  for (let index = 0; index < tree.length; index++) {
    for (const pid of all) if (processStat(pid)?.parent === tree[index]) tree.push(pid);
  }
  return tree;
}

/** Running, not a zombie waiting for its parent to reap it. */
function isRunning(pid: number): boolean {
  const stat = processStat(pid);
  if (stat) return stat.state !== "Z";
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stops a tmux server and waits until the programs in its panes have exited. Marvin saves its
 * state when the terminal hangs up, so a test may remove its temporary home only after that.
 */
export async function killTmuxServer(socket: string, timeoutMs = 10_000): Promise<void> {
  const panes = await run("tmux", ["-L", socket, "list-panes", "-a", "-F", "#{pane_pid}"]).then(
    ({ stdout }) => stdout.split("\n").filter(Boolean).map(Number),
    () => [],
  );
  const processes = panes.flatMap(processTree);
  await run("tmux", ["-L", socket, "kill-server"]).catch(() => undefined);
  const deadline = Date.now() + timeoutMs;
  while (processes.some(isRunning)) {
    if (Date.now() > deadline) {
      for (const pid of processes.filter(isRunning)) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // exited meanwhile
        }
      }
      throw new Error(`processes ${processes.join(", ")} still ran ${timeoutMs} ms after tmux hung up; killed`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A shell word, single-quoted. */
function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export interface TmuxOptions {
  env: Record<string, string | undefined>;
  args?: string[];
  cwd?: string;
  width?: number;
  height?: number;
  /** A file that receives every byte marvin writes to the terminal, from the first (tmux pipe-pane). */
  outputFile?: string;
}

/**
 * The built `marvin` running in a real terminal: a detached tmux session on its own server
 * socket (-L), driven with send-keys and read with capture-pane. When marvin exits, the pane
 * shows `MARVIN_EXITED=<code>` on the normal screen (so tests can check the terminal was
 * given back). `kill()` stops the tmux server and waits for everything in it to exit.
 */
export class TmuxMarvin {
  private constructor(readonly socket: string) {}

  static async start(options: TmuxOptions): Promise<TmuxMarvin> {
    const socket = `marvin-e2e-${process.pid}-${++sequence}`;
    const assignments = Object.entries(options.env)
      .filter((entry): entry is [string, string] => entry[1] !== undefined)
      .map(([name, value]) => `${name}=${quote(value)}`);
    const marvin = [process.execPath, MARVIN_BIN, ...(options.args ?? [])].map(quote).join(" ");
    // When the output is recorded, the pane waits for a line first: marvin starts once the recording runs.
    const waitForRecording = options.outputFile ? "read -r _; " : "";
    const shell =
      `${waitForRecording}cd ${quote(options.cwd ?? "/")} && env -i ${assignments.join(" ")} ${marvin} ` +
      `2>marvin-stderr.log; echo MARVIN_EXITED=$?; sleep 120`;
    const session = new TmuxMarvin(socket);
    await session.tmux(
      "-u",
      "new-session",
      "-d",
      "-s",
      "main",
      "-x",
      String(options.width ?? 100),
      "-y",
      String(options.height ?? 30),
      shell,
    );
    if (options.outputFile) {
      await session.tmux("pipe-pane", "-t", "main", "-O", `cat >> ${quote(options.outputFile)}`);
      await session.press("Enter");
    }
    return session;
  }

  private async tmux(...args: string[]): Promise<string> {
    const { stdout } = await run("tmux", ["-L", this.socket, ...args]);
    return stdout;
  }

  /** Types text literally (no key names). */
  type(text: string): Promise<string> {
    return this.tmux("send-keys", "-t", "main", "-l", text);
  }

  /** Presses keys by tmux name: Enter, C-c, PPage, S-Up, Escape… */
  press(...keys: string[]): Promise<string> {
    return this.tmux("send-keys", "-t", "main", ...keys);
  }

  /** Pastes text the way a terminal does (bracketed paste when the program asked for it). */
  async paste(text: string): Promise<void> {
    await this.tmux("set-buffer", "-b", "marvin-paste", "--", text);
    await this.tmux("paste-buffer", "-p", "-d", "-b", "marvin-paste", "-t", "main");
  }

  /** Types a line and presses Enter. */
  async submit(text: string): Promise<void> {
    await this.type(text);
    await this.press("Enter");
  }

  /** The visible screen as text, one string per row. */
  async screen(): Promise<string[]> {
    return (await this.tmux("capture-pane", "-p", "-t", "main")).replace(/\n$/, "").split("\n");
  }

  /** The visible screen with its colours and attributes, as SGR escape sequences (capture-pane -e). */
  async styled(): Promise<string> {
    return (await this.tmux("capture-pane", "-p", "-e", "-t", "main")).replace(/\n$/, "");
  }

  async text(): Promise<string> {
    return (await this.screen()).join("\n");
  }

  /** Waits until the screen shows `expected`; fails with the screen attached. */
  async waitFor(expected: string | RegExp, timeoutMs = 10_000): Promise<string> {
    const started = Date.now();
    let screen = "";
    while (Date.now() - started < timeoutMs) {
      screen = await this.text();
      if (typeof expected === "string" ? screen.includes(expected) : expected.test(screen)) return screen;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`screen never showed ${String(expected)}:\n${screen}`);
  }

  /** Waits until the styled screen (see `styled`) shows `expected`, escape sequences included. */
  async waitForStyled(expected: string | RegExp, timeoutMs = 10_000): Promise<string> {
    const started = Date.now();
    let screen = "";
    while (Date.now() - started < timeoutMs) {
      screen = await this.styled();
      if (typeof expected === "string" ? screen.includes(expected) : expected.test(screen)) return screen;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`screen never showed ${String(expected)}:\n${JSON.stringify(screen)}`);
  }

  resize(width: number, height: number): Promise<string> {
    return this.tmux("resize-window", "-t", "main", "-x", String(width), "-y", String(height));
  }

  /** Hangs up the terminal and waits until marvin (and everything else in it) has exited. */
  kill(): Promise<void> {
    return killTmuxServer(this.socket);
  }
}

/** Whether tmux can be run here (the e2e tests are skipped, loudly, when it cannot). */
export async function tmuxAvailable(): Promise<boolean> {
  try {
    await run("tmux", ["-V"]);
    return true;
  } catch {
    return false;
  }
}
