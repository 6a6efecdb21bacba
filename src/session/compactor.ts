import { compactMessages, KEEP_RECENT_MESSAGES } from "../agent/compaction.js";
import type { ContextBudget } from "../agent/context-budget.js";
import type { AgentEvent } from "../agent/events.js";
import type { Message } from "../providers/types.js";
import { writeConversationBackup } from "./conversation-backup.js";

const SUMMARY_INSTRUCTION =
  "You compress conversations. Summarise the transcript below so the assistant can continue the work: keep the " +
  "user's goals, decisions, facts learned, file paths, commands run and their outcomes, and open tasks. Be dense; " +
  "no preamble.";

interface CompactorDeps {
  budget: ContextBudget;
  emit: (event: AgentEvent) => void;
  /** Throws when a spending cap is reached: past it the summary would be refused and a poorer one kept. */
  checkSpending: () => Promise<void>;
  /** Where the full conversation is backed up before it is condensed. */
  backupDir: () => Promise<string>;
  summarize: (text: string, instruction: string) => Promise<string>;
  /** The conversation was condensed: the system message must be built afresh (a summary changed its place). */
  onCompacted: () => void;
}

/** The session's one way to condense a conversation: for the loop when the context fills up, and for `compact`. */
export class Compactor {
  constructor(private readonly deps: CompactorDeps) {}

  /** A condensed copy of `messages`: a summary and the recent turns, the full history backed up. */
  async compact(messages: readonly Message[]): Promise<{ messages: Message[]; backupPath?: string }> {
    await this.deps.checkSpending();
    const compacted = await compactMessages(messages, {
      backUp: async (all) => writeConversationBackup(await this.deps.backupDir(), all),
      summarize: (transcript) => this.deps.summarize(transcript, SUMMARY_INSTRUCTION),
    });
    if (compacted.backupPath) this.deps.onCompacted();
    return compacted;
  }

  /** Condenses `messages` in place now, reporting it as the loop does; undefined when there is too little to. */
  async compactInPlace(messages: Message[]): Promise<{ tokensBefore: number; tokensAfter: number } | undefined> {
    if (messages.length <= KEEP_RECENT_MESSAGES + 1) return undefined;
    const { budget, emit } = this.deps;
    const before = await budget.exactTokens(messages);
    emit({ type: "compaction", phase: "start", tokensBefore: before });
    const compacted = await this.compact(messages);
    messages.splice(0, messages.length, ...compacted.messages);
    const after = await budget.exactTokens(messages);
    emit({
      type: "compaction",
      phase: "end",
      tokensBefore: before,
      tokensAfter: after,
      backupPath: compacted.backupPath,
    });
    return { tokensBefore: before, tokensAfter: after };
  }
}
