import type { Message } from "../providers/types.js";
import type { ChatLogEntry } from "../state/chat-log.js";
import { contextNote, type StateFacts, stateFacts } from "./context-note.js";
import { buildSystemMessage, type SystemPromptInput } from "./system-prompt.js";

/** What the system message was built from. */
interface Built {
  /** Profile, mode, working directory and project context: a change to any needs a new system message. */
  key: string;
  /** The chat log its compact history came from, with the entries appended since. */
  chatLog: readonly ChatLogEntry[];
  /** What the model was last told of the user's state (by the system message or a note since). */
  told: StateFacts;
}

/** Whether `log` is `base` with entries added at the end (a rewritten log changes the compact history). */
function extendsLog(log: readonly ChatLogEntry[], base: readonly ChatLogEntry[]): boolean {
  if (log.length < base.length) return false;
  return base.every((entry, index) => {
    const now = log[index]!;
    return now.role === entry.role && now.text === entry.text && now.time === entry.time;
  });
}

/**
 * The system message in front of a conversation, built once and again only when what it says really changes
 * (profile, mode, working directory, project instructions, a rewritten chat log, compaction), so that every
 * request of a conversation starts with the same bytes and the provider's prompt cache keeps hitting; the time
 * and what changed in the user's state go into the context note of each new user message.
 */
export class ConversationFrame {
  private system: Message | undefined;
  private built: Built | undefined;

  /** The system message this frame put at index 0 of the conversation, if any. */
  get systemMessage(): Message | undefined {
    return this.system;
  }

  /** The next message gets a system message built afresh (after compaction). */
  invalidate(): void {
    this.built = undefined;
  }

  /** The session appended to the chat log itself: that does not change the compact history already sent. */
  chatLogAppended(chatLog: readonly ChatLogEntry[]): void {
    if (this.built) this.built.chatLog = chatLog.slice();
  }

  /** Puts the system message first in `messages` (rebuilt when needed) and returns the next message's note. */
  apply(
    messages: Message[],
    input: SystemPromptInput,
    note: { notifications: readonly string[]; planning: boolean; now: Date },
  ): string {
    const current = stateFacts(input);
    const key = JSON.stringify([input.profileName, input.codingMode, input.workingDir, input.project ?? null]);
    const built = this.built;
    const stillTrue =
      built !== undefined &&
      this.system !== undefined &&
      messages[0] === this.system &&
      built.key === key &&
      extendsLog(input.chatLog, built.chatLog);
    const told = stillTrue ? built.told : current;
    if (!stillTrue) this.putFirst(messages, { role: "system", content: buildSystemMessage(input) });
    this.built = { key, chatLog: input.chatLog.slice(), told: current };
    return contextNote({ ...note, told, current });
  }

  private putFirst(messages: Message[], system: Message): void {
    // Resumed history (which may start with a compaction summary) gets the system message in front.
    if (messages[0] !== undefined && messages[0] === this.system) messages[0] = system;
    else messages.unshift(system);
    this.system = system;
  }
}
