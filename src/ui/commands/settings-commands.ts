import { realpath } from "node:fs/promises";
import { initCommand, lspReport, type PlanAction, planCommand } from "./coding-commands.js";
import { type CommandOutput, HANDLED } from "./command-output.js";
import type { CommandResult } from "./command-result.js";
import { permissionsCommand } from "./permissions-command.js";
import { themeCommand } from "./theme-command.js";
import { thinkingCommand } from "./thinking-command.js";
import type { CommandEnvironment, CommandHost } from "./types.js";

/** The conversation's settings: coding and plan mode, `init`, `lsp`, thinking, approvals and the theme. */
export class SettingsCommands {
  constructor(
    private readonly environment: CommandEnvironment,
    private readonly host: CommandHost,
    private readonly output: CommandOutput,
  ) {}

  async toggleCoding(): Promise<CommandResult> {
    const { session } = this.environment;
    const on = session.toggleCodingMode();
    if (!on) return this.output.changed("Coding mode OFF.");
    if (session.workingDir === null) session.setWorkingDir(await realpath(this.environment.cwd));
    session.services.diagnostics.warmUp(session);
    return this.output.changed(
      `Coding mode ON: working directory ${session.workingDir}. Marvin asks before running any command.`,
    );
  }

  /** `plan [approve|off]`: plan mode (read-only tools until the plan is approved). */
  plan(action: PlanAction): CommandResult {
    return this.output.follow(planCommand(this.environment.session, action));
  }

  /** Shift+Tab in the TUI: plan mode on, or off again without approving. */
  togglePlan(): void {
    void this.plan(this.environment.session.planning ? "off" : "on");
  }

  /** `init`: asks the model to explore the project and write an AGENTS.md. */
  init(): CommandResult {
    return this.output.follow(initCommand(this.environment.session));
  }

  /** `lsp`: the language servers running. */
  lsp(): CommandResult {
    return this.output.follow(lspReport(this.environment.session));
  }

  /** `thinking [LEVEL|default]`: how hard the model thinks. */
  thinking(level: string): CommandResult {
    return this.output.say(thinkingCommand(this.environment.session, level || undefined));
  }

  /** `permissions [ask|auto|never]`: shows or changes the approval mode of the conversation. */
  permissions(mode: string): CommandResult {
    return this.output.say(permissionsCommand(this.environment.session, mode || undefined));
  }

  /** `theme [NAME]`: the colour themes (the TUI's picker), or a switch to one. */
  async theme(name: string): Promise<CommandResult> {
    const { themes } = this.environment;
    if (!themes) return this.output.say("This screen has no colour themes.");
    if (name || !this.host.pickTheme) return this.output.say(await themeCommand(themes, name || undefined));
    const { entries, problems } = await themes.list();
    for (const problem of problems) this.host.system(problem);
    this.host.pickTheme(entries);
    return HANDLED;
  }
}
