import type { Env } from "../shared/env.js";

/** What a cap limits: the current conversation's spending, or today's across sessions. */
export type CapKind = "conversation" | "daily";

const SETTING: Record<CapKind, string> = { conversation: "MARVIN_MAX_COST", daily: "MARVIN_MAX_DAILY_COST" };

/** A request refused because spending has reached a cap; the agent loop reports it as the run's error. */
export class SpendingCapReached extends Error {
  override readonly name = "SpendingCapReached";
}

/** An amount in USD as a person writes it (`0.50`, `$2`, `.5`); undefined for anything else, and for 0. */
export function parseUsd(text: string): number | undefined {
  const match = /^\$?(\d+(?:\.\d*)?|\.\d+)$/.exec(text.trim());
  const value = match ? Number(match[1]) : 0;
  return value > 0 ? value : undefined;
}

/** `$0.50` for whole cents, else four decimals (`$0.5212`). */
export function usd(value: number): string {
  const cents = value * 100;
  return Math.abs(cents - Math.round(cents)) < 1e-6 ? `$${value.toFixed(2)}` : `$${value.toFixed(4)}`;
}

/** The example a stop message gives: twice the cap, or more when even that is spent already. */
function higher(limit: number, spent: number): string {
  const suggestion = limit * 2 > spent ? limit * 2 : spent + limit;
  return (Math.ceil(suggestion * 100 - 1e-6) / 100).toFixed(2);
}

interface Cap {
  limit: number;
  /** The setting it came from, or the `cap` command. */
  origin: "setting" | "command";
}

/** What has been spent, as a cap check needs it; `today` is only asked for when a daily cap is set. */
interface Spending {
  conversation: number;
  today: () => Promise<number>;
}

/**
 * MARVIN_MAX_COST (USD per conversation) and MARVIN_MAX_DAILY_COST (USD per day), as the settings give them
 * and as the `cap` command changes them in an interactive session. `check` runs before every LLM request.
 */
export class SpendingCaps {
  /** One line per setting that is not a usable amount (that cap is not set). */
  readonly warnings: string[] = [];
  private readonly settings: Partial<Record<CapKind, Cap>> = {};
  private readonly caps: Partial<Record<CapKind, Cap>> = {};

  constructor(
    env: Env,
    private readonly interactive: boolean,
  ) {
    for (const kind of ["conversation", "daily"] as const) {
      const text = env[SETTING[kind]]?.trim();
      if (!text) continue;
      const limit = parseUsd(text);
      if (limit === undefined) {
        this.warnings.push(
          `${SETTING[kind]}=${text} is not an amount in USD above 0 (e.g. 0.50): it is ignored, ` +
            `there is no ${kind === "daily" ? "daily " : ""}spending cap.`,
        );
        continue;
      }
      this.settings[kind] = { limit, origin: "setting" };
    }
    Object.assign(this.caps, this.settings);
  }

  /** Whether any cap is set; without one a check costs nothing. */
  get active(): boolean {
    return this.caps.conversation !== undefined || this.caps.daily !== undefined;
  }

  /** The `cap` command: a new limit, or none. */
  set(kind: CapKind, limit: number | undefined): void {
    this.caps[kind] = limit === undefined ? undefined : { limit, origin: "command" };
  }

  /** A new conversation starts with MARVIN_MAX_COST again, whatever `cap` set for the last one. */
  newConversation(): void {
    this.caps.conversation = this.settings.conversation;
  }

  /** The cap's amount in USD, or undefined when it is not set. */
  limit(kind: CapKind): number | undefined {
    return this.caps[kind]?.limit;
  }

  /** `$0.50 (MARVIN_MAX_COST)`, `$2.00 (set with cap)`, or `no cap`. */
  describe(kind: CapKind): string {
    const cap = this.caps[kind];
    if (!cap) return "no cap";
    return `${usd(cap.limit)} (${cap.origin === "setting" ? SETTING[kind] : "set with cap"})`;
  }

  /** Throws SpendingCapReached when what is spent has reached a cap. */
  async check(spending: Spending): Promise<void> {
    const conversation = this.caps.conversation;
    if (conversation && spending.conversation >= conversation.limit)
      throw new SpendingCapReached(this.stopMessage("conversation", conversation, spending.conversation));
    const daily = this.caps.daily;
    if (!daily) return;
    const today = await spending.today();
    if (today >= daily.limit) throw new SpendingCapReached(this.stopMessage("daily", daily, today));
  }

  private stopMessage(kind: CapKind, cap: Cap, spent: number): string {
    const what = kind === "daily" ? "Today's LLM requests have" : "This conversation has";
    const position = spent > cap.limit ? "over" : "at";
    const stopped = "Marvin stopped before the next request.";
    if (!this.interactive) {
      const setting = SETTING[kind];
      return (
        `${what} cost ${usd(spent)}, ${position} ${setting}=${usd(cap.limit)}; ${stopped} ` +
        `Raise ${setting} to go on.`
      );
    }
    const command = kind === "daily" ? "cap daily" : "cap";
    const which = kind === "daily" ? "the daily cap" : "its cap";
    const scope = kind === "daily" ? " for this session" : "";
    return (
      `${what} cost ${usd(spent)}, ${position} ${which} of ${this.describe(kind)}; ${stopped} ` +
      `Type "${command} ${higher(cap.limit, spent)}" to raise it${scope}, then send a message to go on.`
    );
  }
}
