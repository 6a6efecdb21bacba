import { blenderStatus } from "../../tools/media/blender/status.js";
import { capCommand } from "./cap-command.js";
import type { CommandOutput } from "./command-output.js";
import type { CommandResult } from "./command-result.js";
import { editPreferences } from "./editor.js";
import { mcpReport } from "./extension-reports.js";
import { profilesReport, savedPlacesReport, usageReport } from "./reports.js";
import type { CommandEnvironment, CommandHost } from "./types.js";

/** The profile and what it reaches: preferences, profiles, usage and caps, saved places, MCP servers, Blender. */
export class ProfileCommands {
  constructor(
    private readonly environment: CommandEnvironment,
    private readonly host: CommandHost,
    private readonly output: CommandOutput,
  ) {}

  editPreferences(): Promise<CommandResult> {
    const { session, env } = this.environment;
    return this.output.sayLater(editPreferences(session, env, (run) => this.host.releaseTerminal(run)));
  }

  profiles(): Promise<CommandResult> {
    return this.output.sayLater(profilesReport(this.environment.session));
  }

  usage(): Promise<CommandResult> {
    return this.output.sayLater(usageReport(this.environment.session, this.environment.home));
  }

  savedPlaces(): Promise<CommandResult> {
    return this.output.sayLater(savedPlacesReport(this.environment.session));
  }

  cap(request: { daily: boolean; amount?: string }): Promise<CommandResult> {
    return this.output.sayLater(capCommand(this.environment.session.spending, request));
  }

  async mcp(args: string[]): Promise<CommandResult> {
    const { extensions } = this.environment;
    if (args.length === 0) return this.output.say(mcpReport(extensions));
    if (args.length === 1 && args[0]!.toLowerCase() === "trust" && extensions)
      return this.output.say(await extensions.trustProject());
    return this.output.say("Usage: mcp (list the MCP servers) or !mcp trust (start this project's .marvin/mcp.json).");
  }

  /** `!blender`: is Blender's MCP add-on answering? */
  async blenderStatus(): Promise<CommandResult> {
    return this.output.say(await blenderStatus(this.environment.env, new AbortController().signal));
  }
}
