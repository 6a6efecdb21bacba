import {
  countTextTokens,
  MessageTokenCounter,
  messagesUpperBound,
  tokenUpperBound,
  truncateToTokens,
} from "../providers/token-counter.js";
import type { Message } from "../providers/types.js";
import type { ContextBudgetView } from "../tools/kit/tool-services.js";

/** Seed 000 §2.16 / 002 §8. */
export interface BudgetThresholds {
  warn: number;
  compact: number;
  hard: number;
}

export const DEFAULT_THRESHOLDS: BudgetThresholds = { warn: 180_000, compact: 200_000, hard: 226_000 };

type BudgetStatus = "ok" | "warn" | "compact" | "reject";

/** Tracks the size of the live conversation against the three thresholds. */
export class ContextBudget {
  private current: readonly Message[] = [];
  private readonly counter = new MessageTokenCounter();
  /** Characters read_file has returned this session (its own budget, seed 004 §6.13B). */
  private charactersRead = 0;

  constructor(readonly thresholds: BudgetThresholds = DEFAULT_THRESHOLDS) {}

  /** The conversation tools are about to add to. */
  track(messages: readonly Message[]): void {
    this.current = messages;
  }

  /** Exact when near a threshold, a cheap upper bound when far below the warning level. */
  async measure(messages: readonly Message[]): Promise<{ status: BudgetStatus; tokens: number }> {
    const tokens = await this.counter.count(messages, this.thresholds.warn);
    const { warn, compact, hard } = this.thresholds;
    const status: BudgetStatus =
      tokens >= hard ? "reject" : tokens >= compact ? "compact" : tokens >= warn ? "warn" : "ok";
    return { status, tokens };
  }

  async exactTokens(messages: readonly Message[]): Promise<number> {
    return this.counter.count(messages, 0);
  }

  /** Takes `tokens` as the exact count of `messages` (a count saved with a resumed conversation). */
  rememberCount(messages: readonly Message[], tokens: number): void {
    this.counter.remember(messages, tokens);
  }

  /** The longest start of `messages` whose exact count is known without counting. */
  knownTokens(messages: readonly Message[]): { messages: number; tokens: number } {
    return this.counter.knownPrefix(messages);
  }

  warningText(tokens: number): string {
    return (
      `\n\n[Context budget warning: about ${tokens.toLocaleString("en-US")} tokens are in use; older messages are ` +
      `compacted at ` +
      `${this.thresholds.compact.toLocaleString("en-US")} and large reads refused at ` +
      `${this.thresholds.hard.toLocaleString("en-US")}. ` +
      `Read only the line ranges you need and wrap up soon.]`
    );
  }

  view(): ContextBudgetView {
    return {
      availableTokens: async () => Math.max(0, this.thresholds.warn - (await this.exactTokens(this.current))),
      surelyFits: (text) => messagesUpperBound(this.current) + tokenUpperBound(text) <= this.thresholds.warn,
      pastHardLimit: async () => (await this.measure(this.current)).tokens >= this.thresholds.hard,
      countTokens: countTextTokens,
      truncateToTokens,
      charactersRead: () => this.charactersRead,
      addCharactersRead: (count) => {
        this.charactersRead += count;
      },
    };
  }
}
