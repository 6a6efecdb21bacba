import type { Session } from "../../session/session.js";
import type { CommandLayer } from "../commands/index.js";
import type { ChatStore } from "./chat-store.js";

/** What the line runner needs from the TUI. */
interface LineRunnerContext {
  layer: CommandLayer;
  chat: ChatStore;
  session: Session;
  /** Something to draw again. */
  changed(): void;
  /** Leaves the UI (after a `quit`, or the answer to a "leave" request). */
  exit(): void;
  exiting(): boolean;
}

/**
 * Runs typed lines through the command layer, one `!command` at a time: lines typed while one runs wait
 * for it, in order, shown as queued like messages typed during an answer. Counts what is in progress.
 */
export class LineRunner {
  private runsInFlight = 0;
  private commandsRunning = 0;
  private idleWaiters: Array<() => void> = [];
  /** Lines typed while a `!command` runs. */
  private readonly held: string[] = [];

  constructor(private readonly context: LineRunnerContext) {}

  /** An answer or a command is in progress. */
  get busy(): boolean {
    return this.runsInFlight > 0 || this.commandsRunning > 0;
  }

  /** Messages waiting for the model, then lines waiting for a command to finish. */
  get queuedLines(): readonly string[] {
    return [...this.context.chat.queued, ...this.held];
  }

  /** Runs one line now, or after the `!command` that runs. */
  async submit(text: string): Promise<void> {
    if (this.commandsRunning > 0) {
      this.held.push(text);
      this.context.changed();
      return;
    }
    await this.run(text);
  }

  private async run(text: string): Promise<void> {
    const { layer, chat } = this.context;
    const parsed = layer.classify(text);
    const toModel =
      parsed.kind === "message" ||
      parsed.kind === "custom" ||
      (parsed.kind === "command" && parsed.command.sendsMessage);
    if (!toModel) chat.addCommand(`${layer.prompt}${text.trim()}`);
    const isCommand = parsed.kind === "shell";
    if (isCommand) this.commandsRunning += 1;
    try {
      const result = await layer.handle(text);
      if (result.type === "exit") this.context.exit();
      if (result.type === "submitted") void result.done.then(() => this.runFinished());
    } finally {
      if (isCommand) this.commandsRunning -= 1;
      this.runHeld();
      this.settle();
    }
  }

  /** Runs the lines held back by a command, up to the next command (which holds the rest). */
  private runHeld(): void {
    while (this.commandsRunning === 0 && this.held.length > 0 && !this.context.exiting())
      void this.run(this.held.shift()!);
  }

  /** A message went to the model: shown now, or queued behind the answer in progress. */
  messageSubmitted(text: string): void {
    const { chat } = this.context;
    if (this.runsInFlight > 0) chat.queued.push(text);
    else chat.addUser(text);
    this.runsInFlight += 1;
    this.context.changed();
  }

  private runFinished(): void {
    const { chat, session } = this.context;
    this.runsInFlight -= 1;
    const next = chat.queued.shift();
    if (next !== undefined) chat.addUser(next);
    this.settle();
    const farewell = session.exitRequested;
    if (farewell !== undefined && this.runsInFlight === 0) {
      chat.addSystem(farewell);
      this.context.exit();
    }
  }

  /** Clears the busy state once nothing runs any more. */
  private settle(): void {
    if (!this.busy) {
      for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
    this.context.changed();
  }

  /** Resolves when no answer or command is running. */
  idle(): Promise<void> {
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }
}
