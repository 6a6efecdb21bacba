import type { ThinkingLevel } from "../types.js";

/**
 * Models that take a fixed thinking budget (`thinking.type: "enabled"`): Claude 3.7 Sonnet, the 4 and 4.1
 * generations, Sonnet and Opus 4.5, Haiku 4.5. Later models think adaptively and refuse a budget, their depth
 * set by `output_config.effort` instead.
 */
const BUDGET_MODELS = /claude-(?:3-7-sonnet|haiku-4|(?:opus|sonnet)-4(?:[.-][015])?(?:-\d{8})?(?![.-]?\d))/;

const BUDGET_TOKENS: Record<Exclude<ThinkingLevel, "off">, number> = { low: 2_000, medium: 8_000, high: 16_000 };

/** Room for the answer itself, on top of a thinking budget. */
const ANSWER_TOKENS = 16_000;
/** `max_tokens` when no budget is set: thinking (adaptive) and answer together. */
const DEFAULT_MAX_TOKENS = 32_000;

/** The request fields of a thinking level for `model`: `thinking`, `output_config` and the `max_tokens` they need. */
export interface ThinkingFields {
  max_tokens: number;
  thinking?: { type: "enabled"; budget_tokens: number } | { type: "adaptive"; display: "summarized" };
  output_config?: { effort: Exclude<ThinkingLevel, "off"> };
}

/**
 * Maps a thinking level to `model`'s API. Absent or `off`, nothing is asked for and the model does what it does by
 * default. Adaptive thinking asks for summarized thinking text, which newer models otherwise leave out.
 */
export function thinkingFields(model: string, level: ThinkingLevel | undefined): ThinkingFields {
  if (level === undefined || level === "off") return { max_tokens: DEFAULT_MAX_TOKENS };
  if (BUDGET_MODELS.test(model)) {
    const budget = BUDGET_TOKENS[level];
    return { max_tokens: budget + ANSWER_TOKENS, thinking: { type: "enabled", budget_tokens: budget } };
  }
  return {
    max_tokens: DEFAULT_MAX_TOKENS,
    thinking: { type: "adaptive", display: "summarized" },
    output_config: { effort: level },
  };
}
