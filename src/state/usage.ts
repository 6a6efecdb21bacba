import { loadJsonFile, writeJsonAtomic, type Loaded } from "./atomic-file.js";

/** Seed 000 §3.7. Keys of the maps are model names (tool names for tool_calls). */
export interface UsageRecord {
  session_cost: number;
  llm_turns: number;
  model_turns: Record<string, number>;
  model_cost: Record<string, number>;
  input_tokens: Record<string, number>;
  output_tokens: Record<string, number>;
  tool_calls: Record<string, number>;
}

export interface LifetimeUsage extends Omit<UsageRecord, "session_cost"> {
  total_cost: number;
  sessions: number;
  provider_cost: Record<string, number>;
  last_updated: string;
}

function emptyRecord(): UsageRecord {
  return { session_cost: 0, llm_turns: 0, model_turns: {}, model_cost: {}, input_tokens: {}, output_tokens: {}, tool_calls: {} };
}

function emptyLifetime(): LifetimeUsage {
  const { session_cost: _unused, ...rest } = emptyRecord();
  return { ...rest, total_cost: 0, sessions: 0, provider_cost: {}, last_updated: "" };
}

function add(map: Record<string, number>, key: string, amount: number): void {
  map[key] = (map[key] ?? 0) + amount;
}

function addMaps(target: Record<string, number>, source: Record<string, number>): void {
  for (const [key, value] of Object.entries(source)) add(target, key, value);
}

function roundUsd(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

function parseLifetime(raw: unknown): LifetimeUsage | undefined {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return undefined;
  const base = emptyLifetime();
  const value = raw as Partial<LifetimeUsage>;
  return {
    ...base,
    ...value,
    model_turns: { ...(value.model_turns ?? {}) },
    model_cost: { ...(value.model_cost ?? {}) },
    input_tokens: { ...(value.input_tokens ?? {}) },
    output_tokens: { ...(value.output_tokens ?? {}) },
    tool_calls: { ...(value.tool_calls ?? {}) },
    provider_cost: { ...(value.provider_cost ?? {}) },
  };
}

/** Per-provider, per-model cost tracking for one session, plus lifetime totals on disk. */
export class UsageTracker {
  private readonly session = emptyRecord();
  private readonly providerCost: Record<string, number> = {};

  recordLLMCall(provider: string, model: string, inputTokens: number, outputTokens: number, cost: number): void {
    const record = this.session;
    record.llm_turns += 1;
    record.session_cost += cost;
    add(record.model_turns, model, 1);
    add(record.model_cost, model, cost);
    add(record.input_tokens, model, inputTokens);
    add(record.output_tokens, model, outputTokens);
    add(this.providerCost, provider, cost);
  }

  recordToolCall(toolName: string): void {
    add(this.session.tool_calls, toolName, 1);
  }

  getSessionUsage(): UsageRecord {
    const record = structuredClone(this.session);
    record.session_cost = roundUsd(record.session_cost);
    for (const model of Object.keys(record.model_cost)) record.model_cost[model] = roundUsd(record.model_cost[model]!);
    return record;
  }

  /** The `MARVIN_COST:` payload: the four contract fields first, then token and tool detail. */
  costLine(): string {
    const usage = this.getSessionUsage();
    const payload = {
      session_cost: usage.session_cost,
      llm_turns: usage.llm_turns,
      model_turns: usage.model_turns,
      model_cost: usage.model_cost,
      input_tokens: usage.input_tokens,
      output_tokens: usage.output_tokens,
      tool_calls: usage.tool_calls,
    };
    return `MARVIN_COST:${JSON.stringify(payload)}`;
  }

  static async loadLifetime(path: string): Promise<Loaded<LifetimeUsage>> {
    return loadJsonFile(path, parseLifetime, emptyLifetime);
  }

  /** Lifetime totals including this session, without writing anything. */
  async getLifetimeUsage(path: string): Promise<LifetimeUsage> {
    const { value: lifetime } = await UsageTracker.loadLifetime(path);
    this.mergeInto(lifetime);
    return lifetime;
  }

  private mergeInto(lifetime: LifetimeUsage): void {
    const session = this.session;
    lifetime.total_cost = roundUsd(lifetime.total_cost + session.session_cost);
    lifetime.llm_turns += session.llm_turns;
    addMaps(lifetime.model_turns, session.model_turns);
    addMaps(lifetime.model_cost, session.model_cost);
    addMaps(lifetime.input_tokens, session.input_tokens);
    addMaps(lifetime.output_tokens, session.output_tokens);
    addMaps(lifetime.tool_calls, session.tool_calls);
    addMaps(lifetime.provider_cost, this.providerCost);
    lifetime.sessions += 1;
    lifetime.last_updated = new Date().toISOString();
  }

  /**
   * Adds this session to `usage.json` (re-read just before writing, so concurrent Marvin
   * processes lose at most a race of milliseconds). Does nothing when nothing was used.
   */
  async persistLifetime(path: string): Promise<string | undefined> {
    if (this.session.llm_turns === 0 && Object.keys(this.session.tool_calls).length === 0) return undefined;
    const { value: lifetime, warning } = await UsageTracker.loadLifetime(path);
    this.mergeInto(lifetime);
    await writeJsonAtomic(path, lifetime);
    return warning;
  }
}
