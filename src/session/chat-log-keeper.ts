import { errorMessage } from "../shared/error-message.js";
import { appendChatLog, type ChatLogEntry, clockTime, loadChatLog } from "../state/chat-log.js";

/** What one message came to, as the chat log records it. */
interface Exchange {
  text: string;
  answer: string;
  error?: string;
}

/**
 * The active profile's chat log (seed 000 §2.2): read at start and before each message (compact_history or
 * another Marvin may rewrite it), appended after each interactive exchange. A failure costs a notice, never a turn.
 */
export class ChatLogKeeper {
  private loaded: ChatLogEntry[] = [];

  constructor(
    private readonly notice: (text: string) => void,
    private readonly now?: () => Date,
  ) {}

  /** As loaded, plus this session's exchanges. */
  get entries(): ChatLogEntry[] {
    return this.loaded;
  }

  async load(path: string): Promise<void> {
    const loaded = await loadChatLog(path);
    this.loaded = loaded.value;
    if (loaded.warning) this.notice(loaded.warning);
  }

  /** Appends one exchange; false when it could not be saved (the notice says why). */
  async record(path: string, exchange: Exchange): Promise<boolean> {
    const time = clockTime(this.now?.());
    const entries: ChatLogEntry[] = [{ role: "you", text: exchange.text, time }];
    if (exchange.answer) entries.push({ role: "assistant", text: exchange.answer, time });
    if (exchange.error) entries.push({ role: "system", text: `Error: ${exchange.error}`, time });
    try {
      const warning = await appendChatLog(path, entries);
      if (warning) this.notice(warning);
      this.loaded.push(...entries);
      return true;
    } catch (error) {
      this.notice(`Could not save the chat log: ${errorMessage(error)}`);
      return false;
    }
  }
}
