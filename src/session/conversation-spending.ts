import type { ChatStream } from "../providers/resilient-chat.js";
import type { Env } from "../shared/env.js";
import type { UsageTracker } from "../state/usage.js";
import { ChildAllowances } from "./child-allowances.js";
import { SpendingCaps } from "./spending-caps.js";

/** What the current conversation and today have cost, and the caps every request is checked against. */
export class ConversationSpending {
  /** MARVIN_MAX_COST and MARVIN_MAX_DAILY_COST, as set or changed with the `cap` command. */
  readonly caps: SpendingCaps;
  /** The caps' shares for sub-agents. */
  readonly children = new ChildAllowances(this);
  /** The session cost when the current conversation began (start, `clear`, `resume`). */
  private startCost = 0;

  constructor(
    private readonly usage: UsageTracker,
    env: Env,
    interactive: boolean,
    /** usage.json, where the ended sessions' spending of today is. */
    private readonly usagePath: string,
    private readonly notice: (text: string) => void,
  ) {
    this.caps = new SpendingCaps(env, interactive);
  }

  /**
   * What this conversation's requests and its sub-agents have cost in this process (a resumed one's earlier
   * spending is not known).
   */
  get conversationCost(): number {
    return this.usage.spentWithSubAgents() - this.startCost;
  }

  /** A sub-agent's cost as it reported it. */
  recordChildCost(cost: number): void {
    this.usage.recordSubAgentCost(cost);
  }

  /** What today's requests have cost: the sessions that ended (usage.json) and this one. */
  async spentToday(): Promise<number> {
    const { value, warning } = await this.usage.spentToday(this.usagePath);
    if (warning) this.notice(warning);
    return value;
  }

  newConversation(): void {
    this.startCost = this.usage.spentWithSubAgents();
    this.caps.newConversation();
  }

  /** Throws SpendingCapReached when a cap is reached; costs nothing when no cap is set. */
  async check(): Promise<void> {
    if (!this.caps.active) return;
    await this.caps.check({ conversation: this.conversationCost, today: () => this.spentToday() });
  }

  /** `chat`, refused (SpendingCapReached thrown) before any request once a cap is reached. */
  guard(chat: ChatStream): ChatStream {
    const check = () => this.check();
    return async function* cappedChat(request) {
      await check();
      yield* chat(request);
    };
  }
}
