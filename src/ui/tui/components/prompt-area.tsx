import { Text } from "ink";
import type { Theme } from "../theme.js";

export interface PromptAreaProps {
  queuedLines: string[];
  promptLines: string[];
  width: number;
  theme: Theme;
}

/** A rule, the messages waiting their turn, then the input line (or the y/N question). */
export function PromptArea({ queuedLines, promptLines, width, theme }: PromptAreaProps) {
  return <Text>{[theme.dim("─".repeat(width)), ...queuedLines, ...promptLines].join("\n")}</Text>;
}
