import type { ThinkingLevel } from "./types.js";

export const THINKING_LEVELS: readonly ThinkingLevel[] = ["off", "low", "medium", "high"];

/** A thinking level as typed (`MARVIN_THINKING`, `thinking high`), any case; undefined when it is none. */
export function parseThinkingLevel(text: string): ThinkingLevel | undefined {
  const word = text.trim().toLowerCase();
  return THINKING_LEVELS.find((level) => level === word);
}
