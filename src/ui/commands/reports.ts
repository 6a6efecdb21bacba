import type { Session } from "../../session/session.js";
import { configPaths } from "../../state/paths.js";
import { loadSavedPlaces } from "../../state/saved-places.js";
import { cacheHitText, type LifetimeUsage, type UsageRecord } from "../../state/usage.js";
import { sessionCostText } from "../cost-text.js";

function formatCost(usd: number): string {
  return `$${usd.toFixed(4)}`;
}

function sum(map: Record<string, number>): number {
  return Object.values(map).reduce((total, value) => total + value, 0);
}

function count(value: number): string {
  return value.toLocaleString("en-US");
}

function plural(value: number, noun: string): string {
  return `${count(value)} ${noun}${value === 1 ? "" : "s"}`;
}

function tokenLine(
  record: Pick<UsageRecord, "input_tokens" | "cached_tokens" | "output_tokens" | "llm_turns" | "tool_calls">,
): string {
  const cached = cacheHitText(record);
  return (
    `${plural(record.llm_turns, "LLM call")} · ${count(sum(record.input_tokens))} tokens in` +
    `${cached ? ` (${cached})` : ""} / ` +
    `${count(sum(record.output_tokens))} out · ${plural(sum(record.tool_calls), "tool call")}`
  );
}

function perModel(record: Pick<UsageRecord, "model_turns" | "model_cost">, unpriced: readonly string[]): string[] {
  return Object.keys(record.model_turns)
    .sort()
    .map((model) => {
      const cost = unpriced.includes(model) ? "price unknown" : formatCost(record.model_cost[model] ?? 0);
      return `    ${model}: ${plural(record.model_turns[model] ?? 0, "call")}, ${cost}`;
    });
}

function formatUsage(session: UsageRecord, unpriced: readonly string[], lifetime: LifetimeUsage): string {
  const providers = Object.entries(lifetime.provider_cost)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, cost]) => `${name} ${formatCost(cost)}`);
  return [
    `This session: ${sessionCostText(session.session_cost, unpriced, formatCost)} · ${tokenLine(session)}`,
    ...perModel(session, unpriced),
    `Lifetime (${plural(lifetime.sessions, "session")}, this one included): ${formatCost(lifetime.total_cost)} · ` +
      `${tokenLine(lifetime)}`,
    ...(providers.length ? [`    by provider: ${providers.join(", ")}`] : []),
  ].join("\n");
}

/** `usage`: this session's cost and tokens, and the lifetime totals of usage.json plus this session. */
export async function usageReport(session: Session, home: string): Promise<string> {
  const { value: lifetime, warning } = await session.usage.getLifetimeUsage(configPaths(home).usage);
  const report = formatUsage(session.usage.getSessionUsage(), session.usage.unpricedModels(), lifetime);
  return warning ? `${warning}\n${report}` : report;
}

/** `profiles`: every profile, the active one marked. */
export async function profilesReport(session: Session): Promise<string> {
  const names = await session.profiles.list();
  if (!names.includes(session.profileName)) names.push(session.profileName);
  const lines = names.sort().map((name) => (name === session.profileName ? `  * ${name} (active)` : `    ${name}`));
  return ["Profiles:", ...lines, 'To switch, ask Marvin (e.g. "switch to profile work").'].join("\n");
}

/** `saved`: the active profile's saved places. */
export async function savedPlacesReport(session: Session): Promise<string> {
  const loaded = await loadSavedPlaces(session.profiles.paths(session.profileName).savedPlaces);
  const places = loaded.value;
  const warning = loaded.warning ? [loaded.warning] : [];
  if (places.length === 0)
    return [...warning, 'No saved places yet. Ask Marvin to save one (e.g. "save this café as work-coffee").'].join(
      "\n",
    );
  const lines = places.map((place) => {
    const details = [place.name, place.address].filter((part) => part && part !== place.label).join(", ");
    return `  ${place.label}${details ? ` — ${details}` : ""}`;
  });
  return [...warning, `Saved places (${places.length}):`, ...lines].join("\n");
}
