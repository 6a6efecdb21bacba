import type { SessionSummary } from "../../session/saved-sessions/session-store.js";
import { errorMessage } from "../../shared/error-message.js";
import { FileIndex } from "../../workspace/file-index.js";
import type { FrontEndOptions } from "../front-end.js";
import { safeLabel } from "../terminal-text.js";
import type { PlanAction } from "./coding-commands.js";
import { CommandOutput, HANDLED } from "./command-output.js";
import type { CommandResult } from "./command-result.js";
import type { CommandActions } from "./command-table.js";
import { Completer } from "./completion.js";
import { ConversationCommands, codingNote } from "./conversation-commands.js";
import { expandCustomCommand } from "./custom-commands.js";
import { helpText } from "./extension-reports.js";
import { InputLineHistory } from "./input-line-history.js";
import { attachMentions } from "./mentions.js";
import { ModelCommands } from "./model-commands.js";
import { type ParsedInput, parseInput } from "./parse.js";
import { ProfileCommands } from "./profile-commands.js";
import { SettingsCommands } from "./settings-commands.js";
import { ShellMode } from "./shell-mode.js";
import type { ActiveModel, CommandEnvironment, CommandHost } from "./types.js";
import { VoiceCommands } from "./voice-commands.js";
import { WELCOME_HINT } from "./welcome-hint.js";

type Answer = Promise<CommandResult>;

/** What `/name` says when no command has that name. */
function unknownCommandText(name: string, suggestions: readonly string[]): string {
  const nearest = suggestions.length ? ` Did you mean ${suggestions.map((found) => `/${found}`).join(" or ")}?` : "";
  const what = name ? `/${name} is not a command.` : "Type a command name after /.";
  return `${what}${nearest} /help lists them; nothing was sent to the model.`;
}

/**
 * The interactive command layer shared by the TUI and the plain UI: one typed line in,
 * a command performed or a message submitted. It owns the input history and hands each
 * command to its group; everything else lives in the session. See ./index.ts for the contract.
 */
export class CommandLayer implements CommandActions {
  private readonly output: CommandOutput;
  private readonly shell: ShellMode;
  private readonly models: ModelCommands;
  private readonly conversations: ConversationCommands;
  private readonly settings: SettingsCommands;
  private readonly profile: ProfileCommands;
  private readonly voice: VoiceCommands;
  private readonly inputLines: InputLineHistory;

  /** `/` commands, `@` mentions and paths for the UIs' completion. */
  readonly completer: Completer;

  constructor(
    private readonly environment: CommandEnvironment,
    private readonly host: CommandHost,
  ) {
    const output = new CommandOutput(environment, host);
    this.output = output;
    this.shell = new ShellMode(environment, host, output);
    this.models = new ModelCommands(environment, output);
    this.conversations = new ConversationCommands({ environment, host, output, models: this.models });
    this.settings = new SettingsCommands(environment, host, output);
    this.profile = new ProfileCommands(environment, host, output);
    this.voice = new VoiceCommands(environment.env, host, output);
    this.completer = new Completer({
      customCommands: environment.customCommands ?? [],
      toolNames: () => environment.session.toolNames,
      themeNames: () => environment.themes?.namesForCompletion(() => host.completionsChanged?.()) ?? [],
      root: () => this.shell.directory,
      home: environment.home,
      files: new FileIndex(environment.env, () => host.completionsChanged?.()),
    });
    this.inputLines = new InputLineHistory(
      () => environment.session.profiles.paths(environment.session.profileName).inputHistory,
      (text) => host.system(text),
    );
  }

  // The commands of the table (see command-table.ts), each answered by its group.
  say = (text: string): CommandResult => this.output.say(text);
  clear = (): Answer => this.conversations.clear();
  compact = (): Answer => this.conversations.compact();
  listSessions = (): Answer => this.conversations.listSessions();
  pickOrList = (): Answer => this.conversations.pickOrList();
  resume = (query: string): Answer => this.conversations.resume(query);
  rewind = (query: string): Answer => this.conversations.rewind(query);
  undo = (): Answer => this.conversations.undo();
  switchModel = (args: string[]): Answer => this.models.switchModel(args);
  askCopilot = (prompt: string): Answer => this.models.askCopilot(prompt);
  toggleShell = (): CommandResult => this.shell.toggle();
  toggleCoding = (): Answer => this.settings.toggleCoding();
  plan = (action: PlanAction): CommandResult => this.settings.plan(action);
  init = (): CommandResult => this.settings.init();
  lsp = (): CommandResult => this.settings.lsp();
  thinking = (level: string): CommandResult => this.settings.thinking(level);
  permissions = (mode: string): CommandResult => this.settings.permissions(mode);
  theme = (name: string): Answer => this.settings.theme(name);
  editPreferences = (): Answer => this.profile.editPreferences();
  profiles = (): Answer => this.profile.profiles();
  usage = (): Answer => this.profile.usage();
  savedPlaces = (): Answer => this.profile.savedPlaces();
  cap = (request: { daily: boolean; amount?: string }): Answer => this.profile.cap(request);
  mcp = (args: string[]): Answer => this.profile.mcp(args);
  blenderStatus = (): Answer => this.profile.blenderStatus();
  recordVoice = (seconds: number): Answer => this.voice.recordVoice(seconds);
  toggleVoice = (): Answer => this.voice.toggleVoice();

  /** Shift+Tab in the TUI: plan mode on, or off again without approving. */
  togglePlan(): void {
    this.settings.togglePlan();
  }

  /** `/help`: the commands, then the custom commands when there are any. */
  get helpText(): string {
    return helpText(this.environment.customCommands ?? []);
  }

  /**
   * What the command line asked for at start: `--continue`, `--resume ID` or `--session ID`.
   * Returns "pick" when `--resume` came without an id: the UI then shows its picker.
   */
  openRequested(options: FrontEndOptions): Promise<"pick" | undefined> {
    return this.conversations.openRequested(options);
  }

  /** Saved conversations, newest first, for a picker. */
  savedSessions(): Promise<SessionSummary[]> {
    return this.conversations.savedSessions();
  }

  /** True while continuous voice input (`!voice`) listens: for the status line. */
  get voiceListening(): boolean {
    return this.voice.listening;
  }

  /** Esc: stops a voice recording or continuous voice input; false when none runs. */
  stopVoice(): boolean {
    return this.voice.stop();
  }

  get shellMode(): boolean {
    return this.shell.on;
  }

  /** `$ ` in shell mode, `plan> ` in plan mode, `> ` otherwise. */
  get prompt(): string {
    if (this.shell.on) return "$ ";
    return this.environment.session.planning ? "plan> " : "> ";
  }

  /** Provider and model in use (the one actually answering while a `!pro` query runs). */
  get activeModel(): ActiveModel {
    return this.models.activeModel;
  }

  /** The line both UIs open with. */
  get welcome(): string {
    const { provider, model } = this.activeModel;
    const { session } = this.environment;
    const profile = safeLabel(session.profileName);
    return `Marvin — ${provider} · ${model} · profile ${profile}${codingNote(session)}. ${WELCOME_HINT}`;
  }

  /** The line both UIs print on leaving: how to come back to this conversation, when it was saved. */
  get farewell(): string | undefined {
    const { session } = this.environment;
    const id = session.conversationId;
    if (!id || session.messageCount === 0) return undefined;
    return `To continue this conversation: marvin --resume ${id}`;
  }

  /** True while a `!command` runs. */
  get commandRunning(): boolean {
    return this.shell.busy;
  }

  /**
   * Ctrl+C: stops the running shell command, else the streaming answer, else voice input. Returns whether
   * anything was running. A command on the terminal got the key itself and decides what it means.
   */
  interrupt(): boolean {
    if (this.shell.interrupt()) return true;
    if (this.environment.session.busy) {
      this.environment.session.abort();
      return true;
    }
    return this.voice.stop();
  }

  /** Input history of the active profile, oldest first (for ↑/↓ and Ctrl+R), safe to show on the prompt line. */
  loadInputHistoryLines(): Promise<string[]> {
    return this.inputLines.lines();
  }

  /** What `line` asks for, as `handle` would take it (a UI decides from it how to echo the line). */
  classify(line: string): ParsedInput {
    return parseInput(line, this.shell.on, this.environment.customCommands ?? []);
  }

  /** Handles one typed line. Never throws: failures become system messages. */
  async handle(line: string): Promise<CommandResult> {
    const parsed = this.classify(line);
    if (parsed.kind !== "empty") this.inputLines.record(line);
    try {
      return await this.dispatch(parsed);
    } catch (error) {
      this.host.system(`Error: ${errorMessage(error)}`);
      return HANDLED;
    }
  }

  /** Stops a running shell command and waits for pending history writes. */
  async close(): Promise<void> {
    this.shell.stop();
    this.voice.stop();
    await this.inputLines.settled();
  }

  private async dispatch(parsed: ParsedInput): Promise<CommandResult> {
    switch (parsed.kind) {
      case "empty":
        return HANDLED;
      case "command":
        return parsed.command.run(this, parsed.args);
      case "custom":
        return this.output.submit(expandCustomCommand(parsed.command, parsed.args));
      case "unknown":
        return this.say(unknownCommandText(parsed.name, parsed.suggestions));
      case "shell":
        return this.shell.run(parsed.command);
      case "message":
        return this.submitWithMentions(parsed.text);
      default: {
        const exhaustive: never = parsed;
        return exhaustive;
      }
    }
  }

  /** A message with the files it mentions as `@path` attached (see attachMentions), and a note on each. */
  private async submitWithMentions(text: string): Promise<CommandResult> {
    const { notes, attached, ...attachments } = await attachMentions(text, this.shell.directory);
    const accepted = () => attached && this.host.system(attached);
    const result = this.output.submit(text, "session", { ...attachments, accepted });
    for (const note of notes) this.host.system(note);
    return result;
  }
}
