import { Box, Text } from "ink";

export interface ChatViewProps {
  /** The visible lines, already wrapped to the width. */
  lines: string[];
  height: number;
}

/** The visible window of the conversation. Lines arrive pre-wrapped, so Ink only places them. */
export function ChatView({ lines, height }: ChatViewProps) {
  return (
    <Box height={height} flexDirection="column" overflow="hidden">
      <Text>{lines.join("\n")}</Text>
    </Box>
  );
}
