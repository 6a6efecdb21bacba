import type { ApprovalQuestion } from "../../session/approvals.js";
import type { SessionSummary } from "../../session/saved-sessions/session-store.js";
import type { Session } from "../../session/session.js";
import { normalizeHistoryEntry } from "../../state/input-history.js";
import { HELP_DESCRIPTION_COLUMN } from "../commands/help.js";
import { COMMAND_HELP, type CommandHost, type CommandLayer, EXIT_HINT, InterruptKey } from "../commands/index.js";
import { resumedTurns, type ScreenRoom } from "../commands/resumed-turns.js";
import type { ThemeChoice } from "../theme/theme-choice.js";
import type { ChatStore } from "./chat-store.js";
import { CompletionKeys } from "./completion-keys.js";
import type { CompletionMenu } from "./completion-menu.js";
import type { ConfirmBroker } from "./confirm-broker.js";
import { answeredConfirmation, confirmationAnswer, isCtrlC } from "./confirm-keys.js";
import { InputHistoryBrowser } from "./input-history-browser.js";
import { type InputEvent, type KeyEvent, KeyParser } from "./key-parser.js";
import { TUI_KEYS_HELP } from "./keys-help.js";
import { LineRunner } from "./line-runner.js";
import { PendingQuestion } from "./pending-question.js";
import { EMPTY_PROMPT, type PromptEffect, type PromptState, promptKey } from "./prompt-keys.js";
import { openPicker, type PickerState, pickerKey } from "./session-picker.js";
import type { Theme } from "./theme.js";
import { ThemePicker } from "./theme-picker.js";
import { pageSize, type ScrollTop, scrollBy } from "./viewport.js";

interface TuiControllerOptions {
  session: Session;
  /** Builds the shared command layer over this UI's host. */
  createLayer: (host: CommandHost) => CommandLayer;
  chat: ChatStore;
  confirm: ConfirmBroker;
  /** The colour theme: the screen draws with it, `theme` switches it. */
  themes: ThemeChoice;
  /** Ends the UI (unmounts it); cleanup happens in the caller. */
  onExit: () => void;
  /** stdin and stdout are a real terminal: `!command` runs on it (see CommandHost.terminal). */
  terminal: boolean;
  /** Hands the terminal to a child program (the preferences editor, a `!command`). */
  releaseTerminal: CommandHost["releaseTerminal"];
  /** Ctrl+L: draw the whole screen again. */
  redraw?: () => void;
  /** The terminal's size, for how much of a resumed conversation to show again. */
  screenSize?: () => ScreenRoom;
}

/** Where the chat area was last drawn, for scrolling by pages. */
interface ChatLayout {
  totalLines: number;
  height: number;
}

/**
 * The TUI's state and behaviour, kept outside React so the screen can be torn down and
 * rebuilt (around an editor) without losing anything. The React tree renders from it and
 * sends it input events; it talks to the session only through the shared command layer.
 */
export class TuiController {
  prompt: PromptState = EMPTY_PROMPT;
  scrollTop: ScrollTop = null;
  layout: ChatLayout = { totalLines: 0, height: 1 };
  readonly inputHistory = new InputHistoryBrowser();
  /** The `--resume` picker while it is open. */
  picker: PickerState | undefined;
  /** The `theme` picker while it is open. */
  themePicker: ThemePicker | undefined;
  /** When the answer or command in progress began (performance.now()), for the elapsed time shown. */
  busySince: number | undefined;
  private busyTicker: ReturnType<typeof setInterval> | undefined;
  readonly layer: CommandLayer;
  private readonly completion: CompletionKeys;
  private readonly lines: LineRunner;
  private readonly interruptKey: InterruptKey;
  private readonly listeners = new Set<() => void>();
  private versionNumber = 0;
  private exiting = false;
  private readonly question: PendingQuestion;

  constructor(private readonly options: TuiControllerOptions) {
    this.question = new PendingQuestion({
      chat: options.chat,
      prompt: () => this.layer.prompt,
      changed: () => this.changed(),
    });
    this.layer = options.createLayer(this.createHost());
    this.lines = new LineRunner({
      layer: this.layer,
      chat: options.chat,
      session: options.session,
      changed: () => this.changed(),
      exit: () => this.exit(),
      exiting: () => this.exiting,
    });
    this.completion = new CompletionKeys({
      completer: this.layer.completer,
      line: () => this.prompt.line,
      setLine: (line) => {
        this.prompt = { line };
      },
      run: (text) => {
        this.prompt = EMPTY_PROMPT;
        this.inputHistory.reset();
        void this.submit(text);
      },
    });
    this.interruptKey = new InterruptKey(() => this.layer.interrupt());
    options.confirm.onChange(() => this.changed());
    options.themes.onChange(() => this.changed());
  }

  /** The styles the screen draws with now. */
  get theme(): Theme {
    return this.options.themes.theme;
  }

  get chat(): ChatStore {
    return this.options.chat;
  }

  get session(): Session {
    return this.options.session;
  }

  /** Loads the profile's input history for ↑/↓ and Ctrl+R. */
  async loadInputHistoryLines(): Promise<void> {
    this.inputHistory.replace(await this.layer.loadInputHistoryLines());
    this.changed();
  }

  get pendingConfirmation(): ApprovalQuestion | undefined {
    return this.options.confirm.pending;
  }

  /** The completion overlay while it is open. */
  get menu(): CompletionMenu | undefined {
    return this.completion.menu;
  }

  /** An answer or a command is in progress. */
  get busy(): boolean {
    return this.lines.busy;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = (): number => this.versionNumber;

  changed(): void {
    this.trackBusy();
    this.versionNumber += 1;
    for (const listener of this.listeners) listener();
  }

  /** Room the chat has on screen, for showing a conversation again. */
  private room(): ScreenRoom {
    return this.options.screenSize?.() ?? { rows: 24, columns: 80 };
  }

  /** How the command layer reaches this UI. */
  private createHost(): CommandHost {
    return {
      system: (text) =>
        text.startsWith(COMMAND_HELP)
          ? this.chat.addSystem(`${text}\n${TUI_KEYS_HELP}`, "info", HELP_DESCRIPTION_COLUMN)
          : this.chat.addSystem(text),
      terminal: this.options.terminal,
      shellOutput: (chunk) => this.chat.addOutput(chunk),
      releaseTerminal: (run, options) => this.options.releaseTerminal(run, options),
      messageSubmitted: (text) => this.lines.messageSubmitted(text),
      stateChanged: () => this.changed(),
      conversationReplaced: () => {
        this.chat.lastRequestTokens = undefined;
      },
      completionsChanged: () => this.indexReady(),
      pickSession: (sessions) => this.openSessionPicker(sessions),
      pickTheme: (entries) => {
        this.themePicker = new ThemePicker(this.options.themes, entries);
        this.changed();
      },
      showConversation: (messages, total) => this.chat.addResumed(resumedTurns(messages, total, this.room())),
      conversationRewound: (messages, total) => {
        this.chat.lastRequestTokens = undefined;
        this.chat.replaceWithResumed(resumedTurns(messages, total, this.room()));
      },
      ask: (question) => this.question.ask(question),
    };
  }

  /**
   * Shows the picker over the prompt until one is chosen or Esc is pressed: at start (`--resume`)
   * Esc leaves a new conversation, in a chat (`resume`) it goes back to that chat.
   */
  openSessionPicker(sessions: readonly SessionSummary[], atStart = false): void {
    if (sessions.length === 0)
      this.chat.addSystem(
        atStart ? "No saved sessions yet: this is a new conversation." : "No saved sessions yet: nothing to resume.",
      );
    else this.picker = openPicker(sessions, atStart);
    this.changed();
  }

  handleInput(event: InputEvent): void {
    if (this.exiting) return;
    if (this.picker) return this.pickerInput(this.picker, event);
    if (this.themePicker) return this.themePickerInput(this.themePicker, event);
    if (this.pendingConfirmation !== undefined) return this.confirmKey(event);
    if (event.kind === "key" && event.name === "escape" && this.layer.stopVoice()) return this.changed();
    if (!isCtrlC(event)) this.interruptKey.reset();
    if (event.kind === "key" && this.controlKey(event)) return this.changed();
    const before = this.prompt.line;
    const outcome = promptKey(this.prompt, event, this.inputHistory);
    this.prompt = outcome.state;
    if (this.prompt.line !== before) this.completion.edited(event);
    if (outcome.effect) this.apply(outcome.effect);
    this.changed();
  }

  /** Keys handled before the input line: the menu's, Tab, Esc, Ctrl+Q, Ctrl+O/T (see TUI_KEYS_HELP). */
  private controlKey(key: KeyEvent): boolean {
    if (this.prompt.search) return false;
    if (key.ctrl && key.name === "q") {
      this.exit();
      return true;
    }
    if (key.ctrl && (key.name === "o" || key.name === "t")) {
      this.chat.toggleBlocks(key.name === "o" ? "latest" : "all");
      return true;
    }
    if (key.ctrl || key.meta) return false;
    if (key.name === "tab" && !key.shift) {
      this.completion.tab();
      return true;
    }
    if (this.completion.menu) return this.completion.key(this.completion.menu, key);
    if (key.name === "escape") {
      this.layer.interrupt();
      return true;
    }
    return false;
  }

  /** Redraws every second while busy, so the elapsed time counts up. */
  private trackBusy(): void {
    if (this.busy && this.busySince === undefined && !this.exiting) {
      this.busySince = performance.now();
      this.busyTicker = setInterval(() => this.changed(), 1000);
    } else if ((!this.busy || this.exiting) && this.busySince !== undefined) {
      this.busySince = undefined;
      clearInterval(this.busyTicker);
    }
  }

  /** The file index arrived: a waiting Tab completes, an open menu shows the files. */
  private indexReady(): void {
    this.completion.indexReady();
    this.changed();
  }

  /** Keys read while the screen was away (typed ahead during a `!command`), handled as if typed now. */
  replayKeys(typed: string): void {
    if (!typed) return;
    const parser = new KeyParser();
    for (const event of [...parser.push(typed), ...parser.flush()]) this.handleInput(event);
  }

  private apply(effect: PromptEffect): void {
    const { totalLines, height } = this.layout;
    switch (effect.type) {
      case "submit":
        void this.submit(effect.text);
        break;
      case "interrupt":
        this.interrupt();
        break;
      case "exit":
        this.exit();
        break;
      case "scroll":
        this.scrollTop = scrollBy(this.scrollTop, effect.lines, totalLines, height);
        break;
      case "page":
        this.scrollTop = scrollBy(this.scrollTop, effect.direction * pageSize(height), totalLines, height);
        break;
      case "scroll-to":
        this.scrollTop = effect.where === "top" ? 0 : null;
        break;
      case "redraw":
        this.options.redraw?.();
        break;
      case "toggle-plan":
        this.layer.togglePlan();
        break;
    }
  }

  /** Ctrl+C (a key, or SIGINT): see InterruptKey. */
  interrupt(): void {
    if (this.question.answer(undefined)) return;
    switch (this.interruptKey.press(this.prompt.line.text)) {
      case "clear":
        this.prompt = EMPTY_PROMPT;
        break;
      case "hint":
        this.chat.addSystem(EXIT_HINT);
        break;
      case "exit":
        this.exit();
        break;
    }
    this.changed();
  }

  private pickerInput(picker: PickerState, event: InputEvent): void {
    const outcome = pickerKey(picker, event);
    if ("chosen" in outcome) {
      this.picker = undefined;
      void this.layer.resume(outcome.chosen.id).finally(() => this.changed());
    } else if ("cancelled" in outcome) {
      this.picker = undefined;
    } else {
      this.picker = outcome.state;
    }
    this.changed();
  }

  private themePickerInput(picker: ThemePicker, event: InputEvent): void {
    const said = picker.key(event);
    if (said !== undefined) {
      this.themePicker = undefined;
      this.chat.addSystem(said);
    }
    this.changed();
  }

  private confirmKey(event: InputEvent): void {
    if (event.kind === "wheel" || (event.kind === "key" && (event.name === "pageup" || event.name === "pagedown"))) {
      const outcome = promptKey(this.prompt, event, this.inputHistory);
      if (outcome.effect) this.apply(outcome.effect);
      this.changed();
      return;
    }
    const question = this.pendingConfirmation;
    if (!question) return;
    const answer = confirmationAnswer(event, question);
    if (answer === undefined) return;
    this.chat.addConfirmation(question.subject, answeredConfirmation(question, answer));
    this.options.confirm.answer(answer);
    if (answer === "no" && isCtrlC(event)) this.layer.interrupt();
  }

  /**
   * Runs one typed line through the command layer. Lines typed while a `!command` runs wait
   * for it, in order, shown as queued like messages typed during an answer.
   */
  async submit(text: string): Promise<void> {
    if (this.question.answer(text)) return;
    if (this.layer.classify(text).kind === "empty") return;
    this.remember(text);
    this.scrollTop = null;
    await this.lines.submit(text);
  }

  /** Messages waiting for the model, then lines waiting for a command to finish. */
  get queuedLines(): readonly string[] {
    return this.lines.queuedLines;
  }

  private remember(text: string): void {
    const entry = normalizeHistoryEntry(text);
    const entries = this.inputHistory.lines;
    if (entry.trim() && entries.at(-1) !== entry) this.inputHistory.replace([...entries, entry]);
  }

  /** Resolves when no answer or command is running. */
  idle(): Promise<void> {
    return this.lines.idle();
  }

  /** Leaves the UI: declines waiting confirmations and stops work in progress. */
  exit(): void {
    if (this.exiting) return;
    this.exiting = true;
    this.trackBusy();
    this.options.confirm.declineAll();
    this.layer.interrupt();
    this.session.abort();
    this.options.onExit();
  }

  get exited(): boolean {
    return this.exiting;
  }
}
