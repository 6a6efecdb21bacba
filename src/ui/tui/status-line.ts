import { isCoveredByPlan, providerIcon } from "../../providers/registry.js";
import { formatDuration } from "../../shared/duration.js";
import { formatTokens } from "../context-meter.js";
import { sessionCostText } from "../cost-text.js";
import { textWidth, truncateToWidth } from "./spans.js";

/** Everything the status bar shows. */
export interface StatusInfo {
  provider: string;
  model: string;
  profile: string;
  messages: number;
  /** Session cost in USD. */
  cost: number;
  /** Models of this session Marvin has no price for: the cost then says "price unknown". */
  unpricedModels?: readonly string[];
  /** e.g. `83 % from cache`, once a provider served input from its prompt cache. */
  cacheHit?: string;
  /** Tokens the last request of this conversation carried, and where the conversation is compacted. */
  context?: { tokens: number; limit: number };
  /** How long the answer or command in progress has run, in ms. */
  elapsedMs?: number;
  coding: boolean;
  shell: boolean;
  readonly: boolean;
  /** Plan mode: read-only until the plan is approved. */
  planning: boolean;
  /** An answer or a command is in progress. */
  busy: boolean;
  /** Continuous voice input (`!voice`) is listening. */
  listening: boolean;
  /** Messages waiting for their turn. */
  queued: number;
  /** Lines below the visible part of the chat (0 when following the bottom). */
  linesBelow: number;
}

/** `ctx 12k/200k`: how full the conversation is, against the size where it is compacted. */
function contextMeter({ tokens, limit }: { tokens: number; limit: number }): string {
  return `ctx ${formatTokens(tokens)}/${formatTokens(limit)}`;
}

/** Shortest model name worth showing before the facts after it are cut instead. */
const MIN_MODEL_COLUMNS = 8;

/**
 * The left part: provider and model, then the facts. When it does not fit, the provider name
 * goes first (the emoji still names it), then the model name is shortened.
 */
function fitLeft(emoji: string, status: StatusInfo, facts: string[], width: number): string {
  const line = (who: string) => ` ${[who, ...facts].join(" │ ")} │`;
  const full = line(`${emoji} ${status.provider} · ${status.model}`);
  if (textWidth(full) <= width) return full;
  const withoutModel = textWidth(line(`${emoji} `));
  const modelRoom = Math.max(MIN_MODEL_COLUMNS, width - withoutModel);
  return line(`${emoji} ${truncateToWidth(status.model, modelRoom)}`);
}

/**
 * The status bar as plain text of exactly `width` columns: who answers and the session facts
 * on the left, activity (busy, queued, scrolled) on the right, where a cut never reaches it.
 */
export function formatStatus(status: StatusInfo, width: number): string {
  const emoji = providerIcon(status.provider);
  const readOnly = status.planning ? "plan" : status.readonly && "readonly";
  const modes = [status.coding && "coding", status.shell && "shell", readOnly].filter(Boolean).join(" · ");
  const paid =
    status.cost === 0 && isCoveredByPlan(status.provider)
      ? "plan covers it"
      : sessionCostText(status.cost, status.unpricedModels ?? []);
  const cost = paid + (status.cacheHit ? ` (${status.cacheHit})` : "");
  const facts = [`👤 ${status.profile}`, `${status.messages} msgs`, cost, ...(modes ? [modes] : [])];
  const working = status.elapsedMs === undefined ? "● working" : `● working ${formatDuration(status.elapsedMs)}`;
  const right = [
    ...(status.linesBelow ? [`↓ ${status.linesBelow} more lines`] : []),
    ...(status.queued ? [`${status.queued} queued`] : []),
    ...(status.listening ? ["🎤 listening"] : []),
    status.busy ? working : "○ ready",
  ];
  const rightText = ` ${right.join(" │ ")} `;
  const leftWidth = Math.max(0, width - textWidth(rightText));
  // The context meter goes first when the line is too narrow for everything.
  const metered = status.context ? [...facts.slice(0, 3), contextMeter(status.context), ...facts.slice(3)] : facts;
  const fits = textWidth(fitLeft(emoji, status, metered, Number.POSITIVE_INFINITY)) <= leftWidth;
  const leftText = truncateToWidth(fitLeft(emoji, status, fits ? metered : facts, leftWidth), leftWidth);
  const gap = " ".repeat(Math.max(0, leftWidth - textWidth(leftText)));
  return truncateToWidth(leftText + gap + rightText, width);
}
