import { realpath } from "node:fs/promises";
import type { LoopResult } from "../../agent/loop.js";
import { PROVIDER_NAMES } from "../../providers/registry.js";
import type { ProviderName } from "../../providers/types.js";
import type { MessageAttachments } from "../../session/attachments.js";
import type { LoadedSession, SessionSummary } from "../../session/saved-sessions/session-store.js";
import { errorMessage } from "../../shared/error-message.js";
import { blenderStatus } from "../../tools/media/blender/status.js";
import { FileIndex } from "../../workspace/file-index.js";
import type { FrontEndOptions } from "../front-end.js";
import { safeLabel } from "../terminal-text.js";
import { VoiceInput } from "../voice/voice-input.js";
import { capCommand } from "./cap-command.js";
import { initCommand, lspReport, type PlanAction, planCommand } from "./coding-commands.js";
import type { CommandResult } from "./command-result.js";
import type { CommandActions } from "./command-table.js";
import { Completer } from "./completion.js";
import { conversationRecap, messageCount, restoreProvider, sessionList } from "./conversations.js";
import { expandCustomCommand } from "./custom-commands.js";
import { editPreferences } from "./editor.js";
import { helpText, mcpReport } from "./extension-reports.js";
import { InputLineHistory } from "./input-line-history.js";
import { attachMentions } from "./mentions.js";
import { type ParsedInput, parseInput } from "./parse.js";
import { permissionsCommand } from "./permissions-command.js";
import { modelFor, parseProviderName, providerChoices, providerFactory, providerProblem } from "./providers.js";
import { profilesReport, savedPlacesReport, usageReport } from "./reports.js";
import { rewindCommand, undoCommand } from "./rewind.js";
import { sentence } from "./sentence.js";
import { ShellRunner } from "./shell-runner.js";
import { themeCommand } from "./theme-command.js";
import { thinkingCommand } from "./thinking-command.js";
import type { ActiveModel, CommandEnvironment, CommandHost } from "./types.js";

const HANDLED: CommandResult = { type: "handled" };

/** What `/name` says when no command has that name. */
function unknownCommandText(name: string, suggestions: readonly string[]): string {
  const nearest = suggestions.length ? ` Did you mean ${suggestions.map((found) => `/${found}`).join(" or ")}?` : "";
  const what = name ? `/${name} is not a command.` : "Type a command name after /.";
  return `${what}${nearest} /help lists them; nothing was sent to Marvin.`;
}
/** Longest `!v N` recording. */
const MAX_VOICE_SECONDS = 300;

/**
 * The interactive command layer shared by the TUI and the plain UI: one typed line in,
 * a command performed or a message submitted. It owns shell mode and the input history;
 * everything else lives in the session. See ./index.ts for the contract.
 */
export class CommandLayer implements CommandActions {
  private shell = false;
  private selected: ActiveModel;
  private readonly shellRunner: ShellRunner;
  private readonly inputLines: InputLineHistory;
  private readonly voice: VoiceInput;

  /** `/` commands, `@` mentions and paths for the UIs' completion. */
  readonly completer: Completer;

  constructor(
    private readonly environment: CommandEnvironment,
    private readonly host: CommandHost,
  ) {
    this.selected = {
      provider: environment.providerName,
      model: modelFor(environment.providerName, environment, environment.model),
    };
    this.completer = new Completer({
      customCommands: environment.customCommands ?? [],
      toolNames: () => environment.session.toolNames,
      themeNames: () => environment.themes?.namesForCompletion(() => host.completionsChanged?.()) ?? [],
      root: () => this.shellDirectory,
      home: environment.home,
      files: new FileIndex(environment.env, () => host.completionsChanged?.()),
    });
    this.shellRunner = new ShellRunner(host, environment.env);
    this.inputLines = new InputLineHistory(
      () => environment.session.profiles.paths(environment.session.profileName).inputHistory,
      (text) => host.system(text),
    );
    this.voice = new VoiceInput({
      env: environment.env,
      say: (text) => host.system(text),
      changed: () => host.stateChanged?.(),
      send: (text) => this.send(text, "voice"),
    });
  }

  /** `!voice`: continuous voice input on or off. */
  async toggleVoice(): Promise<CommandResult> {
    await this.voice.toggle();
    return HANDLED;
  }

  /** `permissions [ask|auto|never]`: shows or changes the approval mode of the conversation. */
  permissions(mode: string): CommandResult {
    return this.say(permissionsCommand(this.environment.session, mode || undefined));
  }

  /** `rewind [N]`: back to before one of your messages: files, conversation, or both. */
  async rewind(query: string): Promise<CommandResult> {
    return this.changed(await rewindCommand(this.environment.session, this.host, query));
  }

  /** `undo`: the files of the latest turn that changed files, as they were before it. */
  async undo(): Promise<CommandResult> {
    return this.say(await undoCommand(this.environment.session, this.host));
  }

  /** `plan [approve|off]`: plan mode (read-only tools until the plan is approved). */
  plan(action: PlanAction): CommandResult {
    return this.follow(planCommand(this.environment.session, action));
  }

  /** `init`: asks the model to explore the project and write an AGENTS.md. */
  init(): CommandResult {
    return this.follow(initCommand(this.environment.session));
  }

  /** `lsp`: the language servers running. */
  lsp(): CommandResult {
    return this.follow(lspReport(this.environment.session));
  }

  /** `thinking [LEVEL|default]`: how hard the model thinks. */
  thinking(level: string): CommandResult {
    return this.say(thinkingCommand(this.environment.session, level || undefined));
  }

  /** `theme [NAME]`: the colour themes (the TUI's picker), or a switch to one. */
  async theme(name: string): Promise<CommandResult> {
    const { themes } = this.environment;
    if (!themes) return this.say("This screen has no colour themes.");
    if (name || !this.host.pickTheme) return this.say(await themeCommand(themes, name || undefined));
    const { entries, problems } = await themes.list();
    for (const problem of problems) this.host.system(problem);
    this.host.pickTheme(entries);
    return HANDLED;
  }

  /** `!blender`: is Blender's MCP add-on answering? */
  async blenderStatus(): Promise<CommandResult> {
    return this.say(await blenderStatus(this.environment.env, new AbortController().signal));
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
    return this.shell;
  }

  /** `$ ` in shell mode, `plan> ` in plan mode, `> ` otherwise. */
  get prompt(): string {
    if (this.shell) return "$ ";
    return this.environment.session.planning ? "plan> " : "> ";
  }

  /** Provider and model in use (the one actually answering while a `!pro` query runs). */
  get activeModel(): ActiveModel {
    const info = this.environment.session.providerInfo;
    return info ? { provider: info.name as ProviderName, model: info.model } : this.selected;
  }

  /** The line both UIs open with. */
  get welcome(): string {
    const { provider, model } = this.activeModel;
    const profile = safeLabel(this.environment.session.profileName);
    return (
      `Marvin — ${provider} · ${model} · profile ${profile}${this.codingNote}. Type /help for commands, /exit to ` +
      "leave."
    );
  }

  /** The line both UIs print on leaving: how to come back to this conversation, when it was saved. */
  get farewell(): string | undefined {
    const { session } = this.environment;
    const id = session.conversationId;
    if (!id || session.messageCount === 0) return undefined;
    return `To continue this conversation: marvin --resume ${id}`;
  }

  /** ` · coding mode in DIR` while coding mode has a working directory. */
  private get codingNote(): string {
    const { session } = this.environment;
    return session.codingMode && session.workingDir ? ` · coding mode in ${safeLabel(session.workingDir)}` : "";
  }

  /** True while a `!command` runs. */
  get commandRunning(): boolean {
    return this.shellRunner.busy;
  }

  /**
   * Ctrl+C: stops the running shell command, else the streaming answer, else voice input. Returns whether
   * anything was running. A command on the terminal got the key itself and decides what it means.
   */
  interrupt(): boolean {
    if (this.shellRunner.interrupt()) return true;
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
    return parseInput(line, this.shell, this.environment.customCommands ?? []);
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
    this.shellRunner.stop();
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
        return this.submit(expandCustomCommand(parsed.command, parsed.args));
      case "unknown":
        return this.say(unknownCommandText(parsed.name, parsed.suggestions));
      case "shell":
        return this.runShell(parsed.command);
      case "message":
        return this.submitWithMentions(parsed.text);
      default: {
        const exhaustive: never = parsed;
        return exhaustive;
      }
    }
  }

  /** `/help`: the commands, then the custom commands when there are any. */
  get helpText(): string {
    return helpText(this.environment.customCommands ?? []);
  }

  editPreferences(): Promise<CommandResult> {
    const { session, env } = this.environment;
    return this.sayLater(editPreferences(session, env, (run) => this.host.releaseTerminal(run)));
  }

  profiles(): Promise<CommandResult> {
    return this.sayLater(profilesReport(this.environment.session));
  }

  usage(): Promise<CommandResult> {
    return this.sayLater(usageReport(this.environment.session, this.environment.home));
  }

  savedPlaces(): Promise<CommandResult> {
    return this.sayLater(savedPlacesReport(this.environment.session));
  }

  listSessions(): Promise<CommandResult> {
    return this.sayLater(this.sessionsReport());
  }

  cap(request: { daily: boolean; amount?: string }): Promise<CommandResult> {
    return this.sayLater(capCommand(this.environment.session.spending, request));
  }

  private async sayLater(text: Promise<string>): Promise<CommandResult> {
    return this.say(await text);
  }

  /**
   * What the command line asked for at start: `--continue`, `--resume ID` or `--session ID`.
   * Returns "pick" when `--resume` came without an id: the UI then shows its picker.
   */
  async openRequested(options: FrontEndOptions): Promise<"pick" | undefined> {
    const { session } = this.environment;
    if (options.resume === "") return "pick";
    if (options.resume) {
      await this.resume(options.resume);
    } else if (options.session) {
      const stored = await session.sessions?.load(options.session);
      if (stored) await this.continueStored(stored);
    } else if (options.continueLatest) {
      const latest = await session.sessions?.latestIn(this.environment.cwd);
      if (latest) await this.resume(latest.id);
      else this.host.system("No earlier conversation was started in this directory; this is a new one.");
    }
    return undefined;
  }

  /** Saved conversations, newest first, for a picker. */
  async savedSessions(): Promise<SessionSummary[]> {
    return (await this.environment.session.sessions?.list()) ?? [];
  }

  async pickOrList(): Promise<CommandResult> {
    if (!this.host.pickSession || !this.environment.session.sessions) return this.say(await this.sessionsReport());
    this.host.pickSession(await this.savedSessions());
    return HANDLED;
  }

  private async sessionsReport(): Promise<string> {
    const { session } = this.environment;
    if (!session.sessions) return "This session keeps no conversations.";
    return sessionList(await session.sessions.list(), session.conversationId);
  }

  /** Continues a saved conversation: messages, mode, working directory, provider and model. */
  async resume(query: string): Promise<CommandResult> {
    const { session } = this.environment;
    const store = session.sessions;
    if (!store) return this.say("This session keeps no conversations.");
    if (session.busy) return this.say("Marvin is still answering: resume after the answer, or press Ctrl+C first.");
    const found = await store.find(query);
    if ("problem" in found) return this.say(found.problem);
    const stored = await store.load(found.id);
    if (!stored) return this.say(`Session ${found.id} is gone.`);
    return this.continueStored(stored);
  }

  private async continueStored(stored: LoadedSession): Promise<CommandResult> {
    const { session } = this.environment;
    const notices = await session.resume(stored);
    if (!this.environment.providerFlag) {
      const restored = await restoreProvider(this.environment, stored, this.activeModel);
      this.selected = restored.active;
      if (restored.notice) notices.push(restored.notice);
    }
    const { provider, model } = this.activeModel;
    const title = safeLabel(stored.start.title);
    const facts = `${stored.id}, ${messageCount(stored.totalMessages)}`;
    const shows = this.host.showConversation !== undefined;
    const recap = shows ? [] : conversationRecap(stored.messages);
    const result = this.replaced(
      [
        `Resumed "${title}" (${facts}) · ${provider} · ${model}${this.codingNote}`,
        ...notices,
        ...(recap.length ? ["Where it stopped:", ...recap.map((line) => `  ${line}`)] : []),
      ].join("\n"),
    );
    this.host.showConversation?.(stored.messages, stored.totalMessages);
    return result;
  }

  async clear(): Promise<CommandResult> {
    const { session } = this.environment;
    if (session.busy) return this.say("Marvin is still answering: clear after the answer, or press Ctrl+C first.");
    const previous = session.conversationId;
    await session.startNewConversation();
    const kept = previous && session.sessions ? ` The previous one is saved: resume ${previous}` : "";
    return this.replaced(`New conversation.${kept}`);
  }

  async compact(): Promise<CommandResult> {
    const result = await this.environment.session.compactNow();
    if (!result) return this.say("Nothing to compact yet: the conversation is short.");
    return this.say(`Compacted the conversation: ${result.tokensBefore} → ${result.tokensAfter} tokens.`);
  }

  async mcp(args: string[]): Promise<CommandResult> {
    const { extensions } = this.environment;
    if (args.length === 0) return this.say(mcpReport(extensions));
    if (args.length === 1 && args[0]!.toLowerCase() === "trust" && extensions)
      return this.say(await extensions.trustProject());
    return this.say("Usage: mcp (list the MCP servers) or !mcp trust (start this project's .marvin/mcp.json).");
  }

  /** Shift+Tab in the TUI: plan mode on, or off again without approving. */
  togglePlan(): void {
    const { session } = this.environment;
    void this.follow(planCommand(session, session.planning ? "off" : "on"));
  }

  /** Shows what a command said, or sends what it asks to the model (plan mode may have changed either way). */
  private follow(outcome: { say: string } | { submit: string; note?: string }): CommandResult {
    this.host.stateChanged?.();
    if ("say" in outcome) return this.say(outcome.say);
    if (outcome.note) this.host.system(outcome.note);
    return this.submit(outcome.submit);
  }

  say(text: string): CommandResult {
    this.host.system(text);
    return HANDLED;
  }

  private changed(text: string): CommandResult {
    this.host.stateChanged?.();
    return this.say(text);
  }

  /** Like `changed`, for a conversation put in place of the current one. */
  private replaced(text: string): CommandResult {
    this.host.conversationReplaced?.();
    this.host.stateChanged?.();
    return this.say(text);
  }

  /** A message with the files it mentions as `@path` attached (see attachMentions), and a note on each. */
  private async submitWithMentions(text: string): Promise<CommandResult> {
    const { notes, attached, ...attachments } = await attachMentions(text, this.shellDirectory);
    const accepted = () => attached && this.host.system(attached);
    const result = this.submit(text, "session", { ...attachments, accepted });
    for (const note of notes) this.host.system(note);
    return result;
  }

  /** `!v [N]`: records N seconds and sends the transcript. */
  async recordVoice(seconds: number): Promise<CommandResult> {
    if (seconds < 1 || seconds > MAX_VOICE_SECONDS)
      return this.say(`Usage: !v [SECONDS] records 1 to ${MAX_VOICE_SECONDS} seconds (5 without a number).`);
    const transcript = await this.voice.once(seconds);
    return transcript ? this.submit(transcript, "voice") : HANDLED;
  }

  private submit(
    text: string,
    via: "session" | "copilot" | "voice" = "session",
    attachments?: MessageAttachments,
  ): CommandResult {
    return { type: "submitted", done: this.send(text, via, attachments) };
  }

  /** Sends a message to the model; settles, never rejecting, when its answer is complete. */
  private send(
    text: string,
    via: "session" | "copilot" | "voice",
    attachments?: MessageAttachments,
  ): Promise<LoopResult> {
    const { session } = this.environment;
    this.host.messageSubmitted?.(text, via);
    const run =
      via === "copilot"
        ? session.submitOnce(text, providerFactory("copilot", this.environment))
        : session.submit(text, attachments);
    return run.catch((error: unknown): LoopResult => {
      this.host.system(`Error: ${errorMessage(error)}`);
      return { reason: "error", text: "", rounds: 0, error: errorMessage(error) };
    });
  }

  toggleShell(): CommandResult {
    this.shell = !this.shell;
    if (!this.shell) return this.changed("Shell mode OFF: lines go to Marvin again.");
    return this.changed(`Shell mode ON: every line runs in the shell (in ${this.shellDirectory}). !sh to leave it.`);
  }

  async toggleCoding(): Promise<CommandResult> {
    const { session } = this.environment;
    const on = session.toggleCodingMode();
    if (!on) return this.changed("Coding mode OFF.");
    if (session.workingDir === null) session.setWorkingDir(await realpath(this.environment.cwd));
    return this.changed(
      `Coding mode ON: working directory ${session.workingDir}. Marvin asks before running any command.`,
    );
  }

  private get shellDirectory(): string {
    return this.environment.session.workingDir ?? this.environment.cwd;
  }

  private async runShell(command: string): Promise<CommandResult> {
    const outcome = await this.shellRunner.run(command, this.shellDirectory);
    return outcome === undefined ? HANDLED : this.say(outcome);
  }

  async askCopilot(prompt: string): Promise<CommandResult> {
    if (!prompt) return this.say("Usage: /pro PROMPT (asks GitHub Copilot once, whatever the current provider).");
    if (this.activeModel.provider === "copilot") return this.submit(prompt);
    const unavailable = await providerProblem("copilot", this.environment);
    const current = this.activeModel.provider;
    if (unavailable) return this.say(`${unavailable} The current provider (${current}) stays in use.`);
    this.host.system(`Asking GitHub Copilot (${modelFor("copilot", this.environment)}) for this one message.`);
    return this.submit(prompt, "copilot");
  }

  async switchModel(args: string[]): Promise<CommandResult> {
    const current = this.activeModel;
    if (args.length === 0) {
      const choices = await providerChoices(this.environment);
      return this.say(
        [
          `Current: ${current.provider} · ${current.model}`,
          "Providers:",
          ...choices,
          "Switch with /model PROVIDER [MODEL].",
        ].join("\n"),
      );
    }
    const [rawName = "", model, ...extra] = args;
    const name = parseProviderName(rawName);
    if (!name)
      return this.say(
        `'${rawName}' is not a provider. Choose one of: ${PROVIDER_NAMES.join(", ")} (e.g. !model groq, or !model ` +
          `openai gpt-4o).`,
      );
    if (extra.length) return this.say("Usage: !model PROVIDER [MODEL] (model names have no spaces).");
    if (this.environment.session.busy)
      return this.say("Marvin is still answering: switch after the answer, or press Ctrl+C to stop it first.");
    const problem = await providerProblem(name, this.environment);
    if (problem)
      return this.say(
        `Cannot switch to ${name}: ${sentence(problem)} Still using ${current.provider} · ${current.model}.`,
      );
    try {
      const provider = await this.environment.session.useProvider(providerFactory(name, this.environment, model));
      this.selected = { provider: name, model: provider.model };
    } catch (error) {
      return this.say(
        `Could not switch to ${name}: ${errorMessage(error)} Still using ${current.provider} · ${current.model}.`,
      );
    }
    return this.changed(`Now using ${this.selected.provider} · ${this.selected.model}; the conversation continues.`);
  }
}
