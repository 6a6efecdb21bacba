import { type CommandOutput, HANDLED } from "./command-output.js";
import type { CommandResult } from "./command-result.js";
import { ShellRunner } from "./shell-runner.js";
import type { CommandEnvironment, CommandHost } from "./types.js";

/** `!COMMAND` and shell mode (`!sh`), where every line runs in bash. */
export class ShellMode {
  /** Shell mode is on. */
  on = false;
  private readonly runner: ShellRunner;

  constructor(
    private readonly environment: CommandEnvironment,
    host: CommandHost,
    private readonly output: CommandOutput,
  ) {
    this.runner = new ShellRunner(host, environment.env);
  }

  /** Where commands run: the session's working directory, else the directory Marvin started in. */
  get directory(): string {
    return this.environment.session.workingDir ?? this.environment.cwd;
  }

  /** True while a command runs. */
  get busy(): boolean {
    return this.runner.busy;
  }

  toggle(): CommandResult {
    this.on = !this.on;
    if (!this.on) return this.output.changed("Shell mode OFF: lines go to Marvin again.");
    return this.output.changed(`Shell mode ON: every line runs in the shell (in ${this.directory}). !sh to leave it.`);
  }

  async run(command: string): Promise<CommandResult> {
    const outcome = await this.runner.run(command, this.directory);
    return outcome === undefined ? HANDLED : this.output.say(outcome);
  }

  /** Ctrl+C: stops a captured command; false when none runs. */
  interrupt(): boolean {
    return this.runner.interrupt();
  }

  stop(): void {
    this.runner.stop();
  }
}
