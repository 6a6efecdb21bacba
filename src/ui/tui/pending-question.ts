import type { ChatStore } from "./chat-store.js";

/** What a command's question needs from the TUI. */
interface QuestionContext {
  chat: ChatStore;
  /** The prompt the answer is echoed after. */
  prompt(): string;
  changed(): void;
}

/** A command's question (`rewind`) waiting for the next line typed. */
export class PendingQuestion {
  private resolve: ((answer: string | undefined) => void) | undefined;

  constructor(private readonly context: QuestionContext) {}

  /** Shows the question; the next line typed answers it (Enter alone or Ctrl+C: undefined). */
  ask(question: string): Promise<string | undefined> {
    this.resolve?.(undefined);
    this.context.chat.addSystem(question.trimEnd());
    return new Promise((resolve) => {
      this.resolve = resolve;
      this.context.changed();
    });
  }

  /** Answers the waiting question; false when there is none. */
  answer(answer: string | undefined): boolean {
    const resolve = this.resolve;
    if (!resolve) return false;
    this.resolve = undefined;
    if (answer?.trim()) this.context.chat.addCommand(`${this.context.prompt()}${answer.trim()}`);
    resolve(answer?.trim() ? answer : undefined);
    this.context.changed();
    return true;
  }
}
