import { realpath } from "node:fs/promises";
import type { LoopResult } from "../../agent/loop.js";
import { PROVIDER_NAMES } from "../../providers/registry.js";
import type { ProviderName } from "../../providers/types.js";
import type { LoadedSession, SessionSummary } from "../../session/history/session-store.js";
import { errorMessage } from "../../shared/error-message.js";
import { appendInputHistory, loadInputHistory } from "../../state/input-history.js";
import type { FrontEndOptions } from "../front-end.js";
import { safeLabel, safeText } from "../terminal-text.js";
import { capCommand } from "./cap-command.js";
import { conversationRecap, messageCount, restoreProvider, sessionList } from "./conversations.js";
import { expandCustomCommand, matchCustomCommand } from "./custom-commands.js";
import { editPreferences } from "./editor.js";
import { helpText, mcpReport } from "./extension-reports.js";
import { type ParsedInput, parseInput } from "./parse.js";
import { modelFor, parseProviderName, providerChoices, providerFactory, providerProblem } from "./providers.js";
import { profilesReport, savedPlacesReport, usageReport } from "./reports.js";
import { sentence } from "./sentence.js";
import { runShellCommand, runShellCommandOnTerminal, type ShellRun, type ShellRunOptions } from "./shell-command.js";
import { thinkingCommand } from "./thinking-command.js";
import type { ActiveModel, CommandEnvironment, CommandHost, CommandResult } from "./types.js";

const HANDLED: CommandResult = { type: "handled" };

const UNAVAILABLE = {
  voice: "Voice input is not available in this release.",
  blender: "Blender integration is not available in this release.",
} as const;

/**
 * The interactive command layer shared by the TUI and the plain UI: one typed line in,
 * a command performed or a message submitted. It owns shell mode and the input history;
 * everything else lives in the session. See ./index.ts for the contract.
 */
export class CommandLayer {
  private shell = false;
  private selected: ActiveModel;
  private shellRun: { controller: AbortController; onTerminal: boolean } | undefined;
  private historyWrites: Promise<void> = Promise.resolve();
  private historyWarned = false;

  constructor(
    private readonly environment: CommandEnvironment,
    private readonly host: CommandHost,
  ) {
    this.selected = {
      provider: environment.providerName,
      model: modelFor(environment.providerName, environment, environment.model),
    };
  }

  get shellMode(): boolean {
    return this.shell;
  }

  /** `$ ` in shell mode, `> ` otherwise. */
  get prompt(): string {
    return this.shell ? "$ " : "> ";
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
      `Marvin — ${provider} · ${model} · profile ${profile}${this.codingNote}. Type help for commands, quit to ` +
      "leave."
    );
  }

  /** ` · coding mode in DIR` while coding mode has a working directory. */
  private get codingNote(): string {
    const { session } = this.environment;
    return session.codingMode && session.workingDir ? ` · coding mode in ${safeLabel(session.workingDir)}` : "";
  }

  /** True while a `!command` runs. */
  get commandRunning(): boolean {
    return this.shellRun !== undefined;
  }

  /**
   * Ctrl+C: stops the running shell command, else the streaming answer. Returns whether anything
   * was running. A command on the terminal got the key itself and decides what it means.
   */
  interrupt(): boolean {
    if (this.shellRun) {
      if (!this.shellRun.onTerminal) this.shellRun.controller.abort();
      return true;
    }
    if (this.environment.session.busy) {
      this.environment.session.abort();
      return true;
    }
    return false;
  }

  /** The active profile's input history file. */
  get historyPath(): string {
    const { session } = this.environment;
    return session.profiles.paths(session.profileName).inputHistory;
  }

  /** Input history of the active profile, oldest first (for ↑/↓ and Ctrl+R), safe to show on the prompt line. */
  async loadHistory(): Promise<string[]> {
    await this.historyWrites;
    return (await loadInputHistory(this.historyPath)).map(safeText);
  }

  /** Handles one typed line. Never throws: failures become system messages. */
  async handle(line: string): Promise<CommandResult> {
    const parsed = parseInput(line, this.shell);
    if (parsed.kind !== "empty") this.recordHistory(line);
    const custom = parsed.kind === "message" && matchCustomCommand(line, this.environment.customCommands ?? []);
    if (custom) return this.submit(expandCustomCommand(custom.command, custom.args));
    try {
      return await this.dispatch(parsed);
    } catch (error) {
      this.host.system(`Error: ${errorMessage(error)}`);
      return HANDLED;
    }
  }

  /** Stops a running shell command and waits for pending history writes. */
  async close(): Promise<void> {
    this.shellRun?.controller.abort();
    await this.historyWrites;
  }

  private async dispatch(parsed: ParsedInput): Promise<CommandResult> {
    const { session } = this.environment;
    switch (parsed.kind) {
      case "empty":
        return HANDLED;
      case "exit":
        return { type: "exit" };
      case "help":
        return this.say(helpText(this.environment.customCommands ?? []));
      case "toggle-shell":
        return this.toggleShell();
      case "toggle-coding":
        return this.toggleCoding();
      case "shell":
        return this.runShell(parsed.command);
      case "pro":
        return this.askCopilot(parsed.prompt);
      case "model":
        return this.switchModel(parsed.args);
      case "preferences":
        return this.say(await editPreferences(session, this.environment.env, (run) => this.host.releaseTerminal(run)));
      case "profiles":
        return this.say(await profilesReport(session));
      case "usage":
        return this.say(await usageReport(session, this.environment.home));
      case "saved":
        return this.say(await savedPlacesReport(session));
      case "sessions":
        return this.say(await this.sessionsReport());
      case "resume":
        return parsed.query ? this.resume(parsed.query) : this.pickOrList();
      case "clear":
        return this.clear();
      case "compact":
        return this.compact();
      case "mcp":
        return this.mcp(parsed.args);
      case "cap":
        return this.say(await capCommand(session, parsed));
      case "thinking":
        return this.say(thinkingCommand(session, parsed.level));
      case "unavailable":
        return this.say(UNAVAILABLE[parsed.feature]);
      case "message":
        return this.submit(parsed.text);
      default: {
        const exhaustive: never = parsed;
        return exhaustive;
      }
    }
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

  private async pickOrList(): Promise<CommandResult> {
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
    const recap = conversationRecap(stored.messages);
    return this.changed(
      [
        `Resumed "${title}" (${facts}) · ${provider} · ${model}${this.codingNote}`,
        ...notices,
        ...(recap.length ? ["Where it stopped:", ...recap.map((line) => `  ${line}`)] : []),
      ].join("\n"),
    );
  }

  private async clear(): Promise<CommandResult> {
    const { session } = this.environment;
    if (session.busy) return this.say("Marvin is still answering: clear after the answer, or press Ctrl+C first.");
    const previous = session.conversationId;
    await session.startNewConversation();
    const kept = previous && session.sessions ? ` The previous one is saved: resume ${previous}` : "";
    return this.changed(`New conversation.${kept}`);
  }

  private async compact(): Promise<CommandResult> {
    const result = await this.environment.session.compactNow();
    if (!result) return this.say("Nothing to compact yet: the conversation is short.");
    return this.say(`Compacted the conversation: ${result.tokensBefore} → ${result.tokensAfter} tokens.`);
  }

  private async mcp(args: string[]): Promise<CommandResult> {
    const { extensions } = this.environment;
    if (args.length === 0) return this.say(mcpReport(extensions));
    if (args.length === 1 && args[0]!.toLowerCase() === "trust" && extensions)
      return this.say(await extensions.trustProject());
    return this.say("Usage: mcp (list the MCP servers) or !mcp trust (start this project's .marvin/mcp.json).");
  }

  private say(text: string): CommandResult {
    this.host.system(text);
    return HANDLED;
  }

  private changed(text: string): CommandResult {
    this.host.stateChanged?.();
    return this.say(text);
  }

  private recordHistory(line: string): void {
    const path = this.historyPath;
    this.historyWrites = this.historyWrites
      .then(() => appendInputHistory(path, line))
      .then(
        () => undefined,
        (error: unknown) => {
          if (this.historyWarned) return;
          this.historyWarned = true;
          this.host.system(`Could not save the input history (${path}): ${errorMessage(error)}`);
        },
      );
  }

  private submit(text: string, via: "session" | "copilot" = "session"): CommandResult {
    const { session } = this.environment;
    this.host.messageSubmitted?.(text, via);
    const run =
      via === "copilot" ? session.submitOnce(text, providerFactory("copilot", this.environment)) : session.submit(text);
    const done = run.catch((error: unknown): LoopResult => {
      this.host.system(`Error: ${errorMessage(error)}`);
      return { reason: "error", text: "", rounds: 0, error: errorMessage(error) };
    });
    return { type: "submitted", done };
  }

  private toggleShell(): CommandResult {
    this.shell = !this.shell;
    if (!this.shell) return this.changed("Shell mode OFF: lines go to Marvin again.");
    return this.changed(`Shell mode ON: every line runs in the shell (in ${this.shellDirectory}). !sh to leave it.`);
  }

  private async toggleCoding(): Promise<CommandResult> {
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
    if (!command) return this.say("Type a command after '!', e.g. !ls -la (or !sh for shell mode).");
    if (this.shellRun) return this.say("A command is still running: wait for it, or press Ctrl+C to stop it.");
    const onTerminal = this.host.terminal;
    const controller = new AbortController();
    this.shellRun = { controller, onTerminal };
    const options = { cwd: this.shellDirectory, env: this.environment.env, signal: controller.signal };
    try {
      const result = onTerminal
        ? await this.host.releaseTerminal(() => runShellCommandOnTerminal(command, options), { keepOutput: true })
        : await this.runCaptured(command, options);
      if (result.spawnError) return this.say(`Could not run the command: ${result.spawnError}`);
      if (result.interrupted) return this.say("Command interrupted.");
      if (result.code !== 0) return this.say(`Exit code ${result.code ?? "unknown (killed by a signal)"}.`);
      return HANDLED;
    } finally {
      this.shellRun = undefined;
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

  private async askCopilot(prompt: string): Promise<CommandResult> {
    if (!prompt) return this.say("Usage: !pro PROMPT (asks GitHub Copilot once, whatever the current provider).");
    if (this.activeModel.provider === "copilot") return this.submit(prompt);
    const unavailable = await providerProblem("copilot", this.environment);
    const current = this.activeModel.provider;
    if (unavailable) return this.say(`${unavailable} The current provider (${current}) stays in use.`);
    this.host.system(`Asking GitHub Copilot (${modelFor("copilot", this.environment)}) for this one message.`);
    return this.submit(prompt, "copilot");
  }

  private async switchModel(args: string[]): Promise<CommandResult> {
    const current = this.activeModel;
    if (args.length === 0) {
      const choices = await providerChoices(this.environment);
      return this.say(
        [
          `Current: ${current.provider} · ${current.model}`,
          "Providers:",
          ...choices,
          "Switch with !model PROVIDER [MODEL].",
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
