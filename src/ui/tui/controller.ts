import type { SessionSummary } from "../../session/history/session-store.js";
import type { Session } from "../../session/session.js";
import { normalizeHistoryEntry } from "../../state/input-history.js";
import {
  COMMAND_HELP,
  type CommandHost,
  type CommandLayer,
  EXIT_HINT,
  InterruptKey,
  parseInput,
} from "../commands/index.js";
import type { ChatStore } from "./chat-store.js";
import type { ConfirmBroker } from "./confirm-broker.js";
import { HistoryBrowser } from "./history-browser.js";
import { type InputEvent, KeyParser } from "./key-parser.js";
import { EMPTY_PROMPT, type PromptEffect, type PromptState, promptKey } from "./prompt-keys.js";
import { openPicker, type PickerState, pickerKey } from "./session-picker.js";
import { pageSize, type ScrollTop, scrollBy } from "./viewport.js";

/** Keys of the full-screen UI, added to the shared `help` text. */
const TUI_KEYS_HELP = `Keys:
  PgUp/PgDn, Shift+↑/↓, wheel   scroll the conversation (Ctrl+Home/End: top/bottom)
  ↑/↓, Ctrl+R                   previous inputs, search them
  ←/→, Home/End, Ctrl+A/E/U/K/W edit the line; Alt+Enter adds a line break
  Shift+drag                    select text (the wheel scrolls the conversation)`;

interface TuiControllerOptions {
  session: Session;
  /** Builds the shared command layer over this UI's host. */
  createLayer: (host: CommandHost) => CommandLayer;
  chat: ChatStore;
  confirm: ConfirmBroker;
  /** Ends the UI (unmounts it); cleanup happens in the caller. */
  onExit: () => void;
  /** stdin and stdout are a real terminal: `!command` runs on it (see CommandHost.terminal). */
  terminal: boolean;
  /** Hands the terminal to a child program (the preferences editor, a `!command`). */
  releaseTerminal: CommandHost["releaseTerminal"];
  /** Ctrl+L: draw the whole screen again. */
  redraw?: () => void;
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
  readonly history = new HistoryBrowser();
  /** The `--resume` picker while it is open. */
  picker: PickerState | undefined;
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

  constructor(private readonly options: TuiControllerOptions) {
    this.layer = options.createLayer(this.createHost());
    this.interruptKey = new InterruptKey(() => this.layer.interrupt());
    options.confirm.onChange(() => this.changed());
  }

  get chat(): ChatStore {
    return this.options.chat;
  }

  get session(): Session {
    return this.options.session;
  }

  /** Loads the profile's input history for ↑/↓ and Ctrl+R. */
  async loadHistory(): Promise<void> {
    this.history.replace(await this.layer.loadHistory());
    this.changed();
  }

  get pendingConfirmation(): string | undefined {
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
      pickSession: (sessions) => this.openSessionPicker(sessions),
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
    if (this.pendingConfirmation !== undefined) return this.confirmKey(event);
    if (!(event.kind === "key" && event.ctrl && event.name === "c")) this.interruptKey.reset();
    const outcome = promptKey(this.prompt, event, this.history);
    this.prompt = outcome.state;
    if (outcome.effect) this.apply(outcome.effect);
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

  private confirmKey(event: InputEvent): void {
    if (event.kind === "wheel" || (event.kind === "key" && (event.name === "pageup" || event.name === "pagedown"))) {
      const outcome = promptKey(this.prompt, event, this.history);
      if (outcome.effect) this.apply(outcome.effect);
      this.changed();
      return;
    }
    const answer = event.kind === "text" ? event.text.trim().toLowerCase() : event.kind === "key" ? event.name : "";
    const interrupted = event.kind === "key" && event.ctrl && event.name === "c";
    if (answer === "y" || answer === "yes") return this.answerConfirmation(true);
    if (answer === "n" || answer === "no" || answer === "enter" || answer === "escape" || interrupted) {
      this.answerConfirmation(false);
      if (interrupted) this.layer.interrupt();
    }
  }

  private answerConfirmation(approved: boolean): void {
    const command = this.pendingConfirmation ?? "";
    this.chat.addConfirmation(command, `Run \`${command}\`? [y/N] ${approved ? "y" : "n"}`);
    this.options.confirm.answer(approved);
  }

  /**
   * Runs one typed line through the command layer. Lines typed while a `!command` runs wait
   * for it, in order, shown as queued like messages typed during an answer.
   */
  async submit(text: string): Promise<void> {
    if (parseInput(text, this.layer.shellMode).kind === "empty") return;
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
    const parsed = parseInput(text, this.layer.shellMode);
    if (parsed.kind !== "message" && parsed.kind !== "pro") this.chat.addCommand(`${this.layer.prompt}${text.trim()}`);
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
    const entries = this.history.history;
    if (entry.trim() && entries.at(-1) !== entry) this.history.replace([...entries, entry]);
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
    this.options.confirm.declineAll();
    this.layer.interrupt();
    this.session.abort();
    this.options.onExit();
  }

  get exited(): boolean {
    return this.exiting;
  }
}
