import { z } from "zod";
import { type Loaded, loadJsonFile, writeJsonAtomic } from "./atomic-file.js";
import { withFileLock } from "./file-lock.js";

/**
 * Counts keyed by names that come from the model or the provider (models, tools). No
 * prototype: `constructor`, `toString` or `__proto__` are ordinary keys, and JSON.stringify
 * writes them as such.
 */
export type Counts = Record<string, number>;

/** Seed 000 §3.7. Keys of the maps are model names (tool names for tool_calls). */
export interface UsageRecord {
  session_cost: number;
  llm_turns: number;
  model_turns: Counts;
  model_cost: Counts;
  input_tokens: Counts;
  output_tokens: Counts;
  /** Of the input tokens, those the provider read from its prompt cache. */
  cached_tokens: Counts;
  tool_calls: Counts;
}

export interface LifetimeUsage extends Omit<UsageRecord, "session_cost"> {
  total_cost: number;
  sessions: number;
  provider_cost: Counts;
  /** USD per local day (`YYYY-MM-DD`), the last DAYS_KEPT days, for MARVIN_MAX_DAILY_COST. */
  daily_cost: Counts;
  last_updated: string;
}

/** How many days of `daily_cost` usage.json keeps, today included. */
const DAYS_KEPT = 31;

const COUNT_FIELDS = [
  "model_turns",
  "model_cost",
  "input_tokens",
  "output_tokens",
  "cached_tokens",
  "tool_calls",
] as const;

/** One LLM call as the agent loop reports it. */
interface LLMCall {
  provider: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  cost: number;
  /** False when Marvin has no price for the model: its cost counts as 0 and the model is named as unpriced. */
  priced?: boolean;
}

function counts(entries: Iterable<[string, number]> = []): Counts {
  const result: Counts = Object.create(null);
  for (const [key, value] of entries) result[key] = value;
  return result;
}

function add(map: Counts, key: string, amount: number): void {
  map[key] = (map[key] ?? 0) + amount;
}

function addAll(target: Counts, source: Counts): void {
  for (const [key, value] of Object.entries(source)) add(target, key, value);
}

function roundUsd(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/** The local date of `date` as `YYYY-MM-DD`: the key of `daily_cost`. */
export function localDay(date: Date): string {
  const two = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
}

/** The entries of the last DAYS_KEPT days up to `today`; older ones and keys that are no date are dropped. */
function recentDays(daily: Counts, today: Date): Counts {
  const oldest = localDay(new Date(today.getFullYear(), today.getMonth(), today.getDate() - (DAYS_KEPT - 1)));
  return counts(
    Object.entries(daily)
      .filter(([day]) => /^\d{4}-\d\d-\d\d$/.test(day) && day >= oldest)
      .map(([day, cost]) => [day, roundUsd(cost)]),
  );
}

function emptyRecord(): UsageRecord {
  const record = { session_cost: 0, llm_turns: 0 } as UsageRecord;
  for (const field of COUNT_FIELDS) record[field] = counts();
  return record;
}

function emptyLifetime(): LifetimeUsage {
  const { session_cost: _unused, ...rest } = emptyRecord();
  return { ...rest, total_cost: 0, sessions: 0, provider_cost: counts(), daily_cost: counts(), last_updated: "" };
}

const amount = z.number().nonnegative();
/** Checked by hand: zod's record drops a `__proto__` key without looking at its value. */
const countsSchema = z.custom<Counts>(
  (value) =>
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((item) => amount.safeParse(item).success),
  "expected an object of names to non-negative numbers",
);

/** usage.json as the original Marvin writes it; every field optional, unknown fields kept. */
const lifetimeSchema = z.looseObject({
  total_cost: amount.optional(),
  sessions: amount.int().optional(),
  llm_turns: amount.int().optional(),
  model_turns: countsSchema.optional(),
  model_cost: countsSchema.optional(),
  input_tokens: countsSchema.optional(),
  output_tokens: countsSchema.optional(),
  cached_tokens: countsSchema.optional(),
  tool_calls: countsSchema.optional(),
  provider_cost: countsSchema.optional(),
  daily_cost: countsSchema.optional(),
  last_updated: z.string().optional(),
});

/** Validated, then rebuilt from the file's own entries (zod's copy would lose `__proto__` keys). */
function parseLifetime(raw: unknown): LifetimeUsage | undefined {
  if (!lifetimeSchema.safeParse(raw).success) return undefined;
  const file = raw as Partial<LifetimeUsage>;
  // No prototype here either: a top-level `__proto__` key in the file stays an ordinary field.
  const lifetime = Object.assign(Object.create(null) as LifetimeUsage, emptyLifetime());
  for (const [key, value] of Object.entries(file)) (lifetime as unknown as Record<string, unknown>)[key] = value;
  for (const field of [...COUNT_FIELDS, "provider_cost", "daily_cost"] as const) {
    lifetime[field] = counts(Object.entries(file[field] ?? {}));
  }
  return lifetime;
}

/** The share of input tokens the providers served from their prompt caches; undefined before any was. */
export function cacheHitShare(record: Pick<UsageRecord, "input_tokens" | "cached_tokens">): number | undefined {
  const total = (counts: Counts) => Object.values(counts).reduce((sum, value) => sum + value, 0);
  const cached = total(record.cached_tokens);
  const input = total(record.input_tokens);
  return cached > 0 && input > 0 ? Math.min(1, cached / input) : undefined;
}

/** `83 % from cache`, or nothing before any input came from a cache. */
export function cacheHitText(record: Pick<UsageRecord, "input_tokens" | "cached_tokens">): string | undefined {
  const share = cacheHitShare(record);
  return share === undefined ? undefined : `${Math.round(share * 100)} % from cache`;
}

/** Per-provider, per-model cost tracking for one session, plus lifetime totals on disk. */
export class UsageTracker {
  private readonly session = emptyRecord();
  private readonly providerCost = counts();
  /** This session's cost per local day (a session may run past midnight). */
  private readonly dailyCost = counts();
  private readonly unpriced = new Set<string>();
  /** What the sub-agents it started spent; each adds its own calls to usage.json. */
  private subAgentCost = 0;

  constructor(private readonly now: () => Date = () => new Date()) {}

  recordLLMCall({ provider, model, inputTokens, outputTokens, cachedTokens, cost, priced }: LLMCall): void {
    const record = this.session;
    if (priced === false) this.unpriced.add(model);
    add(this.dailyCost, localDay(this.now()), cost);
    record.llm_turns += 1;
    record.session_cost += cost;
    add(record.model_turns, model, 1);
    add(record.model_cost, model, cost);
    add(record.input_tokens, model, inputTokens);
    add(record.output_tokens, model, outputTokens);
    if (cachedTokens > 0) add(record.cached_tokens, model, cachedTokens);
    add(this.providerCost, provider, cost);
  }

  /** A sub-agent's cost as it reported it: part of what this session spent, not of its own usage record. */
  recordSubAgentCost(cost: number): void {
    this.subAgentCost += cost;
  }

  /** What this session's own calls and its sub-agents' have cost. */
  spentWithSubAgents(): number {
    return roundUsd(this.session.session_cost + this.subAgentCost);
  }

  recordToolCall(toolName: string): void {
    add(this.session.tool_calls, toolName, 1);
  }

  /** A copy, costs rounded to micro-dollars. */
  getSessionUsage(): UsageRecord {
    const record = { ...this.session, session_cost: roundUsd(this.session.session_cost) };
    for (const field of COUNT_FIELDS) record[field] = counts(Object.entries(this.session[field]));
    for (const model of Object.keys(record.model_cost)) record.model_cost[model] = roundUsd(record.model_cost[model]!);
    return record;
  }

  /** The models this session used that Marvin has no price for (their calls count as $0), in order of first use. */
  unpricedModels(): string[] {
    return [...this.unpriced];
  }

  /**
   * The `MARVIN_COST:` payload: the four contract fields first, then token and tool detail, and `unpriced_models`
   * when a model without a known price answered.
   */
  costLine(): string {
    const usage = this.getSessionUsage();
    const payload = {
      session_cost: usage.session_cost,
      llm_turns: usage.llm_turns,
      model_turns: usage.model_turns,
      model_cost: usage.model_cost,
      input_tokens: usage.input_tokens,
      output_tokens: usage.output_tokens,
      cached_tokens: usage.cached_tokens,
      tool_calls: usage.tool_calls,
      ...(this.unpriced.size ? { unpriced_models: this.unpricedModels() } : {}),
    };
    return `MARVIN_COST:${JSON.stringify(payload)}`;
  }

  static async loadLifetime(path: string): Promise<Loaded<LifetimeUsage>> {
    return loadJsonFile(path, parseLifetime, emptyLifetime);
  }

  /** Lifetime totals including this session, without writing anything; a warning when usage.json was unusable. */
  async getLifetimeUsage(path: string): Promise<Loaded<LifetimeUsage>> {
    const loaded = await UsageTracker.loadLifetime(path);
    this.mergeInto(loaded.value);
    return loaded;
  }

  /**
   * What today's LLM calls have cost: usage.json's entry for today (the sessions that have ended) plus
   * this session's calls of today; a warning when usage.json was unusable.
   */
  async spentToday(path: string): Promise<Loaded<number>> {
    const { value: lifetime, warning } = await UsageTracker.loadLifetime(path);
    const today = localDay(this.now());
    const spent = roundUsd((lifetime.daily_cost[today] ?? 0) + (this.dailyCost[today] ?? 0));
    return warning ? { value: spent, warning } : { value: spent };
  }

  private mergeInto(lifetime: LifetimeUsage): void {
    const session = this.session;
    const now = this.now();
    lifetime.total_cost = roundUsd(lifetime.total_cost + session.session_cost);
    lifetime.llm_turns += session.llm_turns;
    for (const field of COUNT_FIELDS) addAll(lifetime[field], session[field]);
    addAll(lifetime.provider_cost, this.providerCost);
    addAll(lifetime.daily_cost, this.dailyCost);
    lifetime.daily_cost = recentDays(lifetime.daily_cost, now);
    lifetime.sessions += 1;
    lifetime.last_updated = now.toISOString();
  }

  /**
   * Adds this session to `usage.json`. The read-merge-write runs under `usage.json.lock`, so
   * concurrent Marvin processes add up exactly. Does nothing when nothing was used.
   */
  async persistLifetime(path: string): Promise<string | undefined> {
    if (this.session.llm_turns === 0 && Object.keys(this.session.tool_calls).length === 0) return undefined;
    return withFileLock(path, async () => {
      const { value: lifetime, warning } = await UsageTracker.loadLifetime(path);
      this.mergeInto(lifetime);
      await writeJsonAtomic(path, lifetime);
      return warning;
    });
  }
}
