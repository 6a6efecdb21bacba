import { Text } from "ink";
import { formatStatus, type StatusInfo } from "../status-line.js";
import type { Theme } from "../theme.js";

interface StatusBarProps {
  status: StatusInfo;
  width: number;
  theme: Theme;
}

/** One inverse-video line: provider, model, profile, message count, cost, modes, activity. */
export function StatusBar({ status, width, theme }: StatusBarProps) {
  return <Text wrap="truncate">{theme.inverse(formatStatus(status, width))}</Text>;
}
