import type { ApprovalAnswer, ApprovalQuestion } from "../../session/approvals.js";
import type { SessionSummary } from "../../session/saved-sessions/session-store.js";
import type { Session } from "../../session/session.js";
import { normalizeHistoryEntry } from "../../state/input-history.js";
import { approvalAnswer, approvalPrompt } from "../approval-prompt.js";
import { COMMAND_HELP, type CommandHost, type CommandLayer, EXIT_HINT, InterruptKey } from "../commands/index.js";
import { resumedTurns, type ScreenRoom } from "../commands/resumed-turns.js";
import type { ThemeChoice } from "../theme/theme-choice.js";
import type { ChatStore } from "./chat-store.js";
import {
  type CompletionMenu,
  moveSelection,
  openMenu,
  replaceWord,
  selectedItem,
  sharedStart,
} from "./completion-menu.js";
import type { ConfirmBroker } from "./confirm-broker.js";
import { InputHistoryBrowser } from "./input-history-browser.js";
import { type InputEvent, type KeyEvent, KeyParser } from "./key-parser.js";
import { TUI_KEYS_HELP } from "./keys-help.js";
import type { LineState } from "./line-editor.js";
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

/** Typing, pasting and deleting open the completion menu; moving through the line or the history closes it. */
function typedEdit(event: InputEvent): boolean {
  return (
    event.kind === "text" ||
    event.kind === "paste" ||
    (event.kind === "key" && !event.ctrl && (event.name === "backspace" || event.name === "delete"))
  );
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
  /** The completion overlay while it is open. */
  menu: CompletionMenu | undefined;
  /** When the answer or command in progress began (performance.now()), for the elapsed time shown. */
  busySince: number | undefined;
  private busyTicker: ReturnType<typeof setInterval> | undefined;
  /** Tab was pressed before the file index was ready: complete once it is. */
  private tabWaiting = false;
  readonly layer: CommandLayer;
  private readonly interruptKey: InterruptKey;
  private readonly listeners = new Set<() => void>();
  private versionNumber = 0;
  private runsInFlight = 0;
  private commandsRunning = 0;
  private exiting = false;
  private idleWaiters: Array<() => void> = [];
  /** Lines typed while a `!command` runs. */
  private readonly held: string[] = [];
  /** A command's question (`rewind`) waiting for the next line typed. */
  private question: ((answer: string | undefined) => void) | undefined;

  constructor(private readonly options: TuiControllerOptions) {
    this.layer = options.createLayer(this.createHost());
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

  /** An answer or a command is in progress. */
  get busy(): boolean {
    return this.runsInFlight > 0 || this.commandsRunning > 0;
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

  /** How the command layer reaches this UI. */
  private createHost(): CommandHost {
    return {
      system: (text) => this.chat.addSystem(text.startsWith(COMMAND_HELP) ? `${text}\n${TUI_KEYS_HELP}` : text),
      terminal: this.options.terminal,
      shellOutput: (chunk) => this.chat.addOutput(chunk),
      releaseTerminal: (run, options) => this.options.releaseTerminal(run, options),
      messageSubmitted: (text) => this.messageSubmitted(text),
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
      showConversation: (messages, total) => {
        const room = this.options.screenSize?.() ?? { rows: 24, columns: 80 };
        this.chat.addResumed(resumedTurns(messages, total, room));
      },
      ask: (question) => this.ask(question),
    };
  }

  /** Shows a command's question; the next line typed answers it (Enter alone or Ctrl+C: undefined). */
  private ask(question: string): Promise<string | undefined> {
    this.question?.(undefined);
    this.chat.addSystem(question.trimEnd());
    return new Promise((resolve) => {
      this.question = resolve;
      this.changed();
    });
  }

  /** Answers the waiting question; false when there is none. */
  private answerQuestion(answer: string | undefined): boolean {
    const resolve = this.question;
    if (!resolve) return false;
    this.question = undefined;
    if (answer?.trim()) this.chat.addCommand(`${this.layer.prompt}${answer.trim()}`);
    resolve(answer?.trim() ? answer : undefined);
    this.changed();
    return true;
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
    if (!(event.kind === "key" && event.ctrl && event.name === "c")) this.interruptKey.reset();
    if (event.kind === "key" && this.controlKey(event)) return this.changed();
    const before = this.prompt.line;
    const outcome = promptKey(this.prompt, event, this.inputHistory);
    this.prompt = outcome.state;
    if (this.prompt.line !== before) this.menu = typedEdit(event) ? this.menuFor(this.prompt.line) : undefined;
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
      this.tabComplete();
      return true;
    }
    if (this.menu) return this.menuKey(this.menu, key);
    if (key.name === "escape") {
      this.layer.interrupt();
      return true;
    }
    return false;
  }

  private menuKey(menu: CompletionMenu, key: KeyEvent): boolean {
    switch (key.name) {
      case "up":
      case "down":
        this.menu = moveSelection(menu, key.name === "up" ? -1 : 1);
        return true;
      case "escape":
        this.menu = undefined;
        return true;
      case "enter": {
        const item = selectedItem(menu);
        const line = replaceWord(this.prompt.line, menu, item.value);
        this.menu = undefined;
        if (item.runs) {
          this.prompt = EMPTY_PROMPT;
          this.inputHistory.reset();
          void this.submit(line.text.trim());
          return true;
        }
        if (line.text.trimEnd() === this.prompt.line.text.trimEnd()) return false; // nothing left to complete: send
        this.setLine(line);
        return true;
      }
      default:
        return false;
    }
  }

  /** Tab: takes the selected choice, or the only one; with several, what they share, and shows them. */
  private tabComplete(): void {
    const { line } = this.prompt;
    if (this.menu) return this.setLine(replaceWord(line, this.menu, selectedItem(this.menu).value));
    const found = this.layer.completer.complete(line.text, line.cursor, true);
    this.tabWaiting = !found;
    if (!found) return;
    if (found.items.length === 1) return this.setLine(replaceWord(line, found, found.items[0]!.value));
    const shared = sharedStart(found.items);
    const text = line.text.slice(0, found.start) + shared + line.text.slice(found.end);
    this.prompt = { line: { text, cursor: found.start + shared.length } };
    this.menu = openMenu(this.layer.completer.complete(text, found.start + shared.length, true));
  }

  private setLine(line: LineState): void {
    this.prompt = { line };
    this.menu = this.menuFor(line);
  }

  private menuFor(line: LineState): CompletionMenu | undefined {
    return openMenu(this.layer.completer.complete(line.text, line.cursor, false));
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
    if (this.tabWaiting) this.tabComplete();
    else if (this.menu) this.menu = this.menuFor(this.prompt.line);
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
    if (this.answerQuestion(undefined)) return;
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
    const answer = event.kind === "text" ? event.text.trim().toLowerCase() : event.kind === "key" ? event.name : "";
    const interrupted = event.kind === "key" && event.ctrl && event.name === "c";
    const question = this.pendingConfirmation;
    if (!question) return;
    const chosen = approvalAnswer(answer, question);
    if (chosen !== "no") return this.answerConfirmation(question, chosen);
    if (answer === "n" || answer === "no" || answer === "enter" || answer === "escape" || interrupted) {
      this.answerConfirmation(question, "no");
      if (interrupted) this.layer.interrupt();
    }
  }

  private answerConfirmation(question: ApprovalQuestion, answer: ApprovalAnswer): void {
    const typed = { yes: "y", no: "n", conversation: "a" }[answer];
    this.chat.addConfirmation(question.subject, `${approvalPrompt(question)}${typed}`);
    this.options.confirm.answer(answer);
  }

  /**
   * Runs one typed line through the command layer. Lines typed while a `!command` runs wait
   * for it, in order, shown as queued like messages typed during an answer.
   */
  async submit(text: string): Promise<void> {
    if (this.answerQuestion(text)) return;
    if (this.layer.classify(text).kind === "empty") return;
    this.remember(text);
    this.scrollTop = null;
    if (this.commandsRunning > 0) {
      this.held.push(text);
      this.changed();
      return;
    }
    await this.run(text);
  }

  /** Messages waiting for the model, then lines waiting for a command to finish. */
  get queuedLines(): readonly string[] {
    return [...this.chat.queued, ...this.held];
  }

  private async run(text: string): Promise<void> {
    const parsed = this.layer.classify(text);
    const toModel =
      parsed.kind === "message" ||
      parsed.kind === "custom" ||
      (parsed.kind === "command" && parsed.command.sendsMessage);
    if (!toModel) this.chat.addCommand(`${this.layer.prompt}${text.trim()}`);
    const isCommand = parsed.kind === "shell";
    if (isCommand) this.commandsRunning += 1;
    try {
      const result = await this.layer.handle(text);
      if (result.type === "exit") this.exit();
      if (result.type === "submitted") void result.done.then(() => this.runFinished());
    } finally {
      if (isCommand) this.commandsRunning -= 1;
      this.runHeld();
      this.settle();
    }
  }

  /** Runs the lines held back by a command, up to the next command (which holds the rest). */
  private runHeld(): void {
    while (this.commandsRunning === 0 && this.held.length > 0 && !this.exiting) void this.run(this.held.shift()!);
  }

  private remember(text: string): void {
    const entry = normalizeHistoryEntry(text);
    const entries = this.inputHistory.lines;
    if (entry.trim() && entries.at(-1) !== entry) this.inputHistory.replace([...entries, entry]);
  }

  private messageSubmitted(text: string): void {
    if (this.runsInFlight > 0) this.chat.queued.push(text);
    else this.chat.addUser(text);
    this.runsInFlight += 1;
    this.changed();
  }

  private runFinished(): void {
    this.runsInFlight -= 1;
    const next = this.chat.queued.shift();
    if (next !== undefined) this.chat.addUser(next);
    this.settle();
    const farewell = this.session.exitRequested;
    if (farewell !== undefined && this.runsInFlight === 0) {
      this.chat.addSystem(farewell);
      this.exit();
    }
  }

  /** Clears the busy state once nothing runs any more. */
  private settle(): void {
    if (!this.busy) {
      for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
    this.changed();
  }

  /** Resolves when no answer or command is running. */
  idle(): Promise<void> {
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
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
