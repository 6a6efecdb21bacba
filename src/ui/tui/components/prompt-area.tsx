import { Text } from "ink";

interface PromptAreaProps {
  queuedLines: string[];
  promptLines: string[];
}

/** The messages waiting their turn, then the input line (or the y/N question). */
export function PromptArea({ queuedLines, promptLines }: PromptAreaProps) {
  return <Text>{[...queuedLines, ...promptLines].join("\n")}</Text>;
}
