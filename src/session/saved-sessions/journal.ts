import type { AgentEvent } from "../../agent/events.js";
import type { Message } from "../../providers/types.js";
import { errorMessage } from "../../shared/error-message.js";
import {
  type ConversationState,
  countsAsMessage,
  firstLine,
  type SessionRecord,
  type TokenCount,
} from "./session-file.js";
import { newSessionId } from "./session-id.js";
import type { LoadedSession, SessionStore } from "./session-store.js";

/** What the journal reads from the session each time it writes. */
interface JournalSource {
  /** The live conversation. */
  readonly messages: readonly Message[];
  /** The session's own system message (rebuilt before every request, never recorded), if any. */
  systemPrompt(): Message | undefined;
  state(): ConversationState;
  /** The longest start of `messages` whose exact token count is known (see ContextBudget.knownTokens). */
  knownTokens(messages: readonly Message[]): TokenCount;
  /** Where Marvin was started. */
  readonly cwd: string;
  notice(text: string): void;
}

/** Events after which the conversation may hold messages not yet on disk. */
const SYNC_EVENTS = new Set<AgentEvent["type"]>(["agent_start", "tool_calls", "turn_end", "agent_end"]);

/**
 * Writes the conversation to its session file as it happens: each new message as soon as the
 * loop has added it, a state line when provider, model or mode change, and the condensed
 * conversation after a compaction.
 */
export class SessionJournal {
  private recorded = new WeakSet<Message>();
  private fileStarted = false;
  private needsNewline = false;
  private lastState = "";
  private writes: Promise<void> = Promise.resolve();
  private failed = false;
  private currentId: string;
  private recordedMessages = 0;
  /** How many messages the last recorded token count covers. */
  private countedMessages = 0;

  constructor(
    private readonly store: SessionStore,
    private readonly source: JournalSource,
    id: string = newSessionId(),
  ) {
    this.currentId = id;
  }

  get id(): string {
    return this.currentId;
  }

  get dir(): string {
    return this.store.dir;
  }

  /** Messages of this conversation recorded so far, as `sessions` counts them (see countsAsMessage). */
  get messageCount(): number {
    return this.recordedMessages;
  }

  /** The session listener: records after every event that may have added messages. */
  readonly listener = (event: AgentEvent): void => {
    if (event.type === "compaction" && event.phase === "end") this.recordCompaction();
    else if (SYNC_EVENTS.has(event.type)) this.sync();
    if (event.type === "agent_end") this.recordTokenCount();
  };

  /** Resolves once housekeeping (removing sessions beyond the cap) is done; records are written at once. */
  flush(): Promise<void> {
    return this.writes;
  }

  /** Continues a stored conversation: its messages count as written, new ones go to its file. */
  continueWith(session: LoadedSession): void {
    this.reset(session.id);
    this.fileStarted = true;
    this.needsNewline = !session.endsWithNewline;
    this.lastState = JSON.stringify(session.state);
    this.recordedMessages = session.totalMessages;
    this.countedMessages = session.tokenCount?.messages ?? 0;
    for (const message of session.messages) this.recorded.add(message);
  }

  /** Starts a new conversation (after `clear`); `id` names it, else a new one is made. */
  startNew(id: string = newSessionId()): void {
    this.reset(id);
  }

  private reset(id: string): void {
    this.currentId = id;
    this.recorded = new WeakSet();
    this.fileStarted = false;
    this.needsNewline = false;
    this.lastState = "";
    this.recordedMessages = 0;
    this.countedMessages = 0;
  }

  private conversation(): readonly Message[] {
    const { messages } = this.source;
    const system = this.source.systemPrompt();
    return system !== undefined && messages[0] === system ? messages.slice(1) : messages;
  }

  /** Writes the messages not yet on disk, preceded by a start or state line when needed. */
  sync(): void {
    const fresh = this.conversation().filter((message) => !this.recorded.has(message));
    if (fresh.length === 0 && (!this.fileStarted || this.stateUnchanged())) return;
    const at = new Date().toISOString();
    const records: SessionRecord[] = [...this.headerRecords(at, fresh)];
    for (const message of fresh) {
      records.push({ type: "message", at, message });
      this.recorded.add(message);
      if (countsAsMessage(message)) this.recordedMessages++;
    }
    this.write(records);
  }

  /** Records that the conversation was cut back (`rewind`), losing `removed` messages as messageCount counts them. */
  recordRewind(removed: number): void {
    this.recordedMessages -= removed;
    // The file's count is void once it covers messages that were cut (see parseSession).
    if (this.countedMessages > this.conversation().length) this.countedMessages = 0;
    if (this.fileStarted)
      this.write([{ type: "rewind", at: new Date().toISOString(), keep: this.conversation().length }]);
  }

  /** Records the token count the context budget knows, when it covers more messages than the last one recorded. */
  private recordTokenCount(): void {
    if (!this.fileStarted) return;
    const known = this.source.knownTokens(this.conversation());
    if (known.messages <= this.countedMessages) return;
    this.countedMessages = known.messages;
    this.write([{ type: "tokens", at: new Date().toISOString(), ...known }]);
  }

  private recordCompaction(): void {
    const at = new Date().toISOString();
    const messages = [...this.conversation()];
    for (const message of messages) this.recorded.add(message);
    this.countedMessages = 0;
    this.write([...this.headerRecords(at, messages), { type: "compaction", at, messages }]);
  }

  private stateUnchanged(): boolean {
    return JSON.stringify(this.source.state()) === this.lastState;
  }

  /** The start line of a new file, or a state line when provider, model or mode changed. */
  private *headerRecords(at: string, fresh: readonly Message[]): Generator<SessionRecord> {
    const state = this.source.state();
    const serialized = JSON.stringify(state);
    if (!this.fileStarted) {
      const firstUser = fresh.find((message) => message.role === "user");
      const title = firstUser ? firstLine(firstUser.content, 60) : "(untitled)";
      this.fileStarted = true;
      this.lastState = serialized;
      this.schedulePrune();
      yield { type: "start", version: 1, id: this.currentId, title, startedAt: at, cwd: this.source.cwd, ...state };
    } else if (serialized !== this.lastState) {
      this.lastState = serialized;
      yield { type: "state", at, ...state };
    }
  }

  private write(records: SessionRecord[]): void {
    try {
      this.store.appendRecordsNow(this.currentId, records, this.needsNewline ? "\n" : "");
      this.needsNewline = false;
    } catch (error) {
      if (this.failed) return;
      this.failed = true;
      this.source.notice(`Could not save this conversation (session ${this.currentId}): ${errorMessage(error)}`);
    }
  }

  private schedulePrune(): void {
    const keep = this.currentId;
    this.writes = this.writes.then(async () => {
      try {
        const removed = await this.store.prune(keep);
        if (removed > 0)
          this.source.notice(`Removed the ${removed} oldest saved session(s) to stay within MARVIN_MAX_SESSIONS.`);
      } catch {
        // Pruning is housekeeping: a failure leaves more sessions than the cap, nothing is lost.
      }
    });
  }
}
