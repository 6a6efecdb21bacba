import type { ChildAllowance, ChildCaps, ChildSpending } from "../tools/kit/tool-services.js";
import { type SpendingCaps, usd } from "./spending-caps.js";

/** What the conversation's spending tells the allowances (ConversationSpending). */
interface CappedSpending {
  readonly caps: Pick<SpendingCaps, "limit">;
  readonly conversationCost: number;
  /** Throws SpendingCapReached when a cap is reached. */
  check(): Promise<void>;
  spentToday(): Promise<number>;
  /** A child's cost, counted towards the conversation. */
  recordChildCost(cost: number): void;
}

/** Shares are whole micro-dollars, rounded down, so that they never add up to more than what is left. */
const MICRO = 1e6;

/**
 * The spending caps shared with child agents (launch_agent): a child gets a share of what the conversation's cap
 * and today's cap leave, minus the shares of the children still running; children asked for together divide it.
 * What a child spent counts towards the conversation as soon as it reports.
 */
export class ChildAllowances implements ChildSpending {
  /** Given to children that have not reported yet. */
  private reserved = 0;
  /** Children enlisted that have not taken their share yet. */
  private waiting = 0;

  constructor(private readonly spending: CappedSpending) {}

  enlist(): ChildAllowance {
    this.waiting += 1;
    let state: "waiting" | "running" | "done" = "waiting";
    let share = 0;
    const leave = () => {
      if (state === "waiting") this.waiting -= 1;
      if (state === "running") this.reserved -= share;
      state = "done";
    };
    return {
      claim: async () => {
        if (state !== "waiting") throw new Error("this child's share was taken already");
        try {
          const caps = await this.share();
          share = caps.conversation ?? 0;
          this.waiting -= 1;
          this.reserved += share;
          state = "running";
          return caps;
        } catch (error) {
          leave();
          throw error;
        }
      },
      settle: (cost) => {
        const spent = cost ?? share;
        leave();
        this.spending.recordChildCost(spent);
      },
      withdraw: leave,
    };
  }

  /** What the next child may spend; throws when a cap is reached or what is left is given to running children. */
  private async share(): Promise<ChildCaps> {
    const { caps } = this.spending;
    const daily = caps.limit("daily");
    const conversationLimit = caps.limit("conversation");
    if (conversationLimit === undefined && daily === undefined) return { conversation: undefined, daily: undefined };
    await this.spending.check();
    const today = daily === undefined ? 0 : await this.spending.spentToday();
    // Read after the last await: a sibling that claimed meanwhile has reserved its share.
    const left = Math.min(
      conversationLimit === undefined ? Infinity : conversationLimit - this.spending.conversationCost,
      daily === undefined ? Infinity : daily - today,
    );
    const free = left - this.reserved;
    const share = Math.floor((free / Math.max(1, this.waiting)) * MICRO) / MICRO;
    if (share <= 0) {
      throw new Error(
        `The ${usd(Math.max(0, left))} left under the spending caps is given to the sub-agents running now ` +
          `(${usd(this.reserved)}); wait for them to report`,
      );
    }
    return { conversation: share, daily };
  }
}
