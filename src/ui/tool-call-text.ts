import { formatDuration } from "../shared/duration.js";
import { preview } from "../shared/truncate.js";
import { safeLabel } from "./terminal-text.js";

const SUMMARY_LENGTH = 72;
/** Longest argument value shown in a call's header line. */
const VALUE_LENGTH = 60;
/** Arguments that say what a call works on, most telling first. */
const KEY_ARGUMENTS = ["command", "path", "url", "query", "pattern", "file", "dir", "directory"];
/** Names and paths are shown as they are; free text (a query, a pattern, a name) in quotes. */
const UNQUOTED = /^(command|path|url|file|dir|directory)$|_(path|url|dir|file)$/;

function keyRank(name: string): number {
  const rank = KEY_ARGUMENTS.indexOf(name);
  if (rank >= 0) return rank;
  return /_(path|url|dir|file)$/.test(name) ? KEY_ARGUMENTS.length : -1;
}

/**
 * The one or two arguments that identify a call (`npm test`, `src/a.ts`, `"rust async"`): its
 * command, path, URL, query or pattern, else its first text argument; on one line, cut with …
 */
export function keyArguments(input: unknown): string {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return "";
  const texts = Object.entries(input).filter(
    (field): field is [string, string] => typeof field[1] === "string" && field[1].trim() !== "",
  );
  const keys = texts.filter(([name]) => keyRank(name) >= 0).sort(([a], [b]) => keyRank(a) - keyRank(b));
  return (keys.length > 0 ? keys.slice(0, 2) : texts.slice(0, 1))
    .map(([name, value]) => {
      const shown = preview(safeLabel(value), VALUE_LENGTH);
      return UNQUOTED.test(name) ? shown : `"${shown}"`;
    })
    .join("  ");
}

/** `run_command  npm test`: the tool's name and its key arguments. */
export function toolCallLabel(name: string, input: unknown): string {
  const shown = keyArguments(input);
  return shown ? `${safeLabel(name)}  ${shown}` : safeLabel(name);
}

/** How long a call ran: `0.4s`, `12.3s`, then `1m 05s`. */
export function elapsedText(milliseconds: number): string {
  return milliseconds < 60_000 ? `${(milliseconds / 1000).toFixed(1)}s` : formatDuration(milliseconds);
}

/** The first meaningful line of a tool result, shortened to fit one chat line. */
export function summarizeToolResult(result: string): string {
  const firstLine = result.split("\n").find((line) => line.trim() !== "") ?? "(no output)";
  const lineCount = result.trim() ? result.trim().split("\n").length : 0;
  const more = lineCount > 1 ? ` (+${lineCount - 1} lines)` : "";
  return preview(safeLabel(firstLine), SUMMARY_LENGTH) + more;
}
