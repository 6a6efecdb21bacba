import { preview } from "../../shared/truncate.js";
import { safeLabel } from "../terminal-text.js";

const SUMMARY_LENGTH = 72;

/** The first meaningful line of a tool result, shortened to fit one chat line. */
export function summarizeToolResult(result: string): string {
  const firstLine = result.split("\n").find((line) => line.trim() !== "") ?? "(no output)";
  const lineCount = result.trim() ? result.trim().split("\n").length : 0;
  const more = lineCount > 1 ? ` (+${lineCount - 1} lines)` : "";
  return preview(safeLabel(firstLine), SUMMARY_LENGTH) + more;
}
