import type { ThinkingLevel } from "../types.js";

/** OpenAI's reasoning models (o1, o3, o4-mini, the GPT-5 family, codex models): only they take `reasoning`. */
const REASONING_MODEL = /^(?:openai\/)?(?:o\d|gpt-5|codex)/;
/** GPT-5.1 and later can skip reasoning (`none`); GPT-5 goes down to `minimal`; o-series models to `low`. */
const NO_REASONING = /^(?:openai\/)?gpt-5\.\d/;
const MINIMAL_REASONING = /^(?:openai\/)?gpt-5(?![.\d])/;

type Effort = "none" | "minimal" | "low" | "medium" | "high";

/** The `reasoning` and `include` fields of a request for `model` at a thinking level. */
export interface ReasoningFields {
  reasoning?: { effort?: Effort; summary: "auto" };
  include?: ["reasoning.encrypted_content"];
}

function lowestEffort(model: string): Effort {
  if (NO_REASONING.test(model)) return "none";
  return MINIMAL_REASONING.test(model) ? "minimal" : "low";
}

/**
 * Maps a thinking level to `model`'s request: for a reasoning model, the effort (absent: the model's default),
 * summaries of its reasoning to show, and its encrypted reasoning to carry through the tool loop; for any other
 * model, nothing (it would refuse the fields).
 */
export function reasoningFields(model: string, level: ThinkingLevel | undefined): ReasoningFields {
  if (!REASONING_MODEL.test(model)) return {};
  const effort = level === undefined ? undefined : level === "off" ? lowestEffort(model) : level;
  return {
    reasoning: { ...(effort ? { effort } : {}), summary: "auto" },
    include: ["reasoning.encrypted_content"],
  };
}
