import type { Env } from "../../shared/env.js";
import { runShellCommand, runShellCommandOnTerminal, type ShellRun, type ShellRunOptions } from "./shell-command.js";
import type { CommandHost } from "./types.js";

/** `!command`: one shell command at a time, on the terminal when there is one, else its output shown in the UI. */
export class ShellRunner {
  private running: { controller: AbortController; onTerminal: boolean } | undefined;

  constructor(
    private readonly host: CommandHost,
    private readonly env: Env,
  ) {}

  /** True while a command runs. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Ctrl+C: stops a captured command (one on the terminal got the key itself); false when none runs. */
  interrupt(): boolean {
    if (!this.running) return false;
    if (!this.running.onTerminal) this.running.controller.abort();
    return true;
  }

  stop(): void {
    this.running?.controller.abort();
  }

  /** Runs `command` in `cwd`; what to tell the person afterwards, if anything. */
  async run(command: string, cwd: string): Promise<string | undefined> {
    if (!command) return "Type a command after '!', e.g. !ls -la (or !sh for shell mode).";
    if (this.running) return "A command is still running: wait for it, or press Ctrl+C to stop it.";
    const onTerminal = this.host.terminal;
    const controller = new AbortController();
    this.running = { controller, onTerminal };
    const options = { cwd, env: this.env, signal: controller.signal };
    try {
      const result = onTerminal
        ? await this.host.releaseTerminal(() => runShellCommandOnTerminal(command, options), { keepOutput: true })
        : await this.runCaptured(command, options);
      if (result.spawnError) return `Could not run the command: ${result.spawnError}`;
      if (result.interrupted) return "Command interrupted.";
      if (result.code !== 0) return `Exit code ${result.code ?? "unknown (killed by a signal)"}.`;
      return undefined;
    } finally {
      this.running = undefined;
    }
  }

  /** Without a terminal: the output goes to the UI, ending with a line break. */
  private async runCaptured(command: string, options: ShellRunOptions): Promise<ShellRun> {
    let endsWithNewline = true;
    const result = await runShellCommand(command, {
      ...options,
      onOutput: (chunk) => {
        endsWithNewline = chunk.endsWith("\n");
        this.host.shellOutput(chunk);
      },
    });
    if (!endsWithNewline) this.host.shellOutput("\n");
    return result;
  }
}
