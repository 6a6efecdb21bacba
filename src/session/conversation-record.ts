import { randomUUID } from "node:crypto";
import type { EventSink } from "../agent/events.js";
import type { Message } from "../providers/types.js";
import { ConversationCheckpoints } from "./checkpoints/conversation-checkpoints.js";
import { SessionJournal } from "./saved-sessions/journal.js";
import type { ConversationState, TokenCount } from "./saved-sessions/session-file.js";
import { countsAsMessage, type NumberedUserMessage, numberUserMessages } from "./saved-sessions/session-file.js";
import type { LoadedSession, SessionStore } from "./saved-sessions/session-store.js";

/** What the record reads from its session when it writes the conversation down. */
interface RecordSource {
  /** Where Marvin was started. */
  cwd: string;
  systemPrompt(): Message | undefined;
  state(): ConversationState;
  /** The longest start of `messages` whose exact token count is known. */
  knownTokens(messages: readonly Message[]): TokenCount;
  notice(text: string): void;
}

/**
 * The messages of one conversation and, when it is saved, its session file and file checkpoints:
 * what `sessions`, `resume`, `clear` and `rewind` act on.
 */
export class ConversationRecord {
  readonly messages: Message[] = [];
  #store: SessionStore | undefined;
  #journal: SessionJournal | undefined;
  #checkpoints: ConversationCheckpoints | undefined;
  /** The prompt-cache key of a conversation that is not saved (a saved one uses its id). */
  #unsavedKey = randomUUID();

  /** Saves the conversation in `store` as it happens, under `id` or a new one; returns the durable listener. */
  save(store: SessionStore, source: RecordSource, id: string | undefined): EventSink {
    const journal = new SessionJournal(store, { ...source, messages: this.messages }, id);
    this.#store = store;
    this.#journal = journal;
    this.#checkpoints = new ConversationCheckpoints(() => store.checkpointsDirOf(journal.id));
    return { listener: journal.listener, flush: () => journal.flush() };
  }

  /** The saved conversations of the profile; undefined when this conversation is not saved. */
  get store(): SessionStore | undefined {
    return this.#store;
  }

  get checkpoints(): ConversationCheckpoints | undefined {
    return this.#checkpoints;
  }

  /** The id under which this conversation is saved, if it is. */
  get id(): string | undefined {
    return this.#journal?.id;
  }

  /** The provider's prompt-cache key: the saved id, else one per unsaved conversation. */
  get cacheKey(): string {
    return this.id ?? this.#unsavedKey;
  }

  /** Messages as `sessions` counts them (see countsAsMessage). */
  get messageCount(): number {
    return this.#journal?.messageCount ?? this.messages.filter(countsAsMessage).length;
  }

  /** The user messages, numbered as `messageCount` counts, with their place in `messages`. */
  userMessages(): NumberedUserMessage[] {
    return numberUserMessages(this.messages, this.messageCount);
  }

  /** Adds the next user message; file changes from now on belong to it. */
  addUserMessage(message: Message): void {
    if (this.#checkpoints) this.#checkpoints.message = this.messageCount + 1;
    this.messages.push(message);
  }

  /** Cuts back to just before user message `message`; false when it is not there. */
  async cutBefore(message: number): Promise<boolean> {
    const found = this.userMessages().find((entry) => entry.message === message);
    if (!found) return false;
    const removed = this.messages.splice(found.index).filter(countsAsMessage).length;
    this.#journal?.recordRewind(removed);
    await this.#checkpoints?.forgetFrom(message);
    return true;
  }

  /** Continues a stored conversation: its messages, and its file for what follows. */
  continueWith(stored: LoadedSession): void {
    this.messages.splice(0, this.messages.length, ...stored.messages);
    this.#journal?.continueWith(stored);
  }

  /** Starts over with no messages (`clear`), saved under a new id. */
  startNew(): void {
    this.messages.length = 0;
    this.#unsavedKey = randomUUID();
    this.#journal?.startNew();
  }
}
