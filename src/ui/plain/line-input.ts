import { createInterface, type Interface } from "node:readline";

interface LineInputOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** Line editing, prompts and Ctrl+C/Ctrl+D keys: only when stdin is a terminal. */
  terminal: boolean;
  /** Earlier input, oldest first, for ↑/↓ (terminal only). */
  history: string[];
  historySize: number;
}

/**
 * The plain UI's keyboard or pipe: every line lands in a queue, so lines typed (or piped)
 * while Marvin is answering are neither lost nor mixed up, and a confirmation question
 * takes the next line, just as a person answering it would.
 */
export class LineInput {
  readonly terminal: boolean;
  private readonly readline: Interface;
  private readonly queued: string[] = [];
  private waiter: ((line: string | undefined) => void) | undefined;
  private closed = false;
  private promptShown = false;

  constructor(private readonly options: LineInputOptions) {
    this.terminal = options.terminal;
    this.readline = createInterface({
      input: options.input,
      output: options.terminal ? options.output : undefined,
      terminal: options.terminal,
      history: [...options.history].reverse(),
      historySize: options.historySize,
      removeHistoryDuplicates: false,
      crlfDelay: Infinity,
    });
    this.readline.on("line", (line) => this.deliver(line));
    this.readline.on("close", () => {
      this.closed = true;
      this.deliver(undefined);
    });
  }

  /** True while a prompt is on screen waiting for the person (terminal only). */
  get promptShowing(): boolean {
    return this.promptShown;
  }

  /** What is typed on the prompt line so far. */
  get currentLine(): string {
    return this.readline.line;
  }

  /** The next line, after showing `prompt` on a terminal; undefined at end of input (Ctrl+D, EOF). */
  next(prompt: string): Promise<string | undefined> {
    if (this.queued.length) return Promise.resolve(this.queued.shift());
    if (this.closed) return Promise.resolve(undefined);
    if (this.terminal) {
      this.readline.setPrompt(prompt);
      this.readline.prompt();
      this.promptShown = true;
    }
    return new Promise((resolve) => (this.waiter = resolve));
  }

  /**
   * Asks a question and waits for the answer, which is kept out of the ↑/↓ history. The
   * question is always written; without a terminal the answer is echoed after it so a
   * transcript reads naturally.
   */
  async ask(question: string): Promise<string | undefined> {
    if (!this.terminal) this.options.output.write(question);
    const answer = await this.next(question);
    if (this.terminal && answer !== undefined && this.history[0] === answer) this.history.shift();
    if (!this.terminal) this.options.output.write(`${answer ?? ""}\n`);
    return answer;
  }

  /** Answers a pending `next`/`ask` with end of input, as Ctrl+C does to a confirmation. */
  cancelPending(): boolean {
    if (!this.waiter) return false;
    if (this.terminal && this.promptShown) this.resetLine();
    this.deliver(undefined, true);
    return true;
  }

  /** Ctrl+C at the prompt: leaves what was typed on screen, optionally prints a note, and starts a fresh prompt. */
  clearLine(note?: string): void {
    this.resetLine();
    if (note) this.options.output.write(`${note}\n`);
    this.readline.prompt();
  }

  /** Moves below what was typed and empties readline's line buffer. */
  private resetLine(): void {
    const readline = this.readline as Interface & { clearLine?: () => void; line: string; cursor: number };
    if (typeof readline.clearLine === "function") return readline.clearLine();
    this.options.output.write("\r\n");
    Object.assign(readline, { line: "", cursor: 0 });
  }

  /** Writes output that arrives while the prompt is shown above it, then redraws the prompt. */
  writeAbovePrompt(text: string): void {
    this.options.output.write(`\r\x1b[K${text}`);
    if (text.endsWith("\n")) this.readline.prompt(true);
  }

  onInterrupt(handler: () => void): void {
    this.readline.on("SIGINT", handler);
  }

  /** Any key but Ctrl+C typed at the terminal, by name ("escape", "a"…). */
  onOtherKey(handler: (name: string | undefined) => void): void {
    if (!this.terminal) return;
    type Key = { ctrl?: boolean; name?: string } | undefined;
    this.options.input.on("keypress", (_text: string | undefined, key: Key) => {
      if (!(key?.ctrl && key.name === "c")) handler(key?.name);
    });
  }

  /** Leaves the terminal to another program (an editor) until `resume`. */
  pause(): void {
    this.readline.pause();
  }

  resume(): void {
    this.readline.resume();
  }

  /** Ends input now: lines still queued are dropped. */
  close(): void {
    this.queued.length = 0;
    this.readline.close();
  }

  private get history(): string[] {
    return (this.readline as unknown as { history: string[] }).history;
  }

  private deliver(line: string | undefined, cancel = false): void {
    const waiter = this.waiter;
    if (waiter) {
      this.waiter = undefined;
      this.promptShown = false;
      waiter(line);
    } else if (line !== undefined && !cancel) {
      this.queued.push(line);
    }
  }
}
