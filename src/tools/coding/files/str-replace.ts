import { nearestLinesHint, numberedExcerpt } from "../../../shared/nearest-lines.js";
import { ToolError } from "../../kit/define-tool.js";
import { countLines, lineNumberAt } from "./text-lines.js";

const MAX_REPORTED_MATCHES = 10;
const LINE_NUMBER_PREFIX = /^\s*\d+\s*[.|:]\s/;

export interface Replaced {
  content: string;
  /** 1-based line where the replacement starts. */
  line: number;
  /** Offset of the replacement in the new content. */
  offset: number;
  removedLines: number;
  addedLines: number;
}

function occurrences(content: string, needle: string, limit: number): number[] {
  const found: number[] = [];
  for (
    let at = content.indexOf(needle);
    at !== -1 && found.length < limit;
    at = content.indexOf(needle, at + needle.length)
  )
    found.push(at);
  return found;
}

const toCrlf = (text: string) => text.replace(/\r?\n/g, "\r\n");

function notFound(content: string, oldStr: string, shownPath: string): ToolError {
  const wanted = oldStr.replace(/\r\n/g, "\n").split("\n");
  const numbered = wanted.filter((line) => line.trim() !== "").every((line) => LINE_NUMBER_PREFIX.test(line));
  const hint = numbered ? "\nold_str seems to start its lines with line numbers from read_file: leave them out." : "";
  return new ToolError(
    `old_str was not found in ${shownPath}. It must match the file exactly, whitespace and indentation ` +
      `included.${hint}\n\n` +
      `${nearestLinesHint(content.split(/\r?\n/), wanted)}\n\nCopy the lines to change from there (without the line ` +
      `numbers) and try again.`,
  );
}

function ambiguous(content: string, oldStr: string, matches: number[], total: number, shownPath: string): ToolError {
  const lines = content.split(/\r?\n/);
  const starts = matches.map((offset) => lineNumberAt(content, offset));
  const excerpts = starts.slice(0, 3).map((line) => numberedExcerpt(lines, line - 2, line + countLines(oldStr)));
  const more = total > matches.length ? ` (the first ${matches.length} shown)` : "";
  return new ToolError(
    `old_str matches ${total} times in ${shownPath}, at lines ${starts.join(", ")}${more}. It must match ` +
      `exactly once: ` +
      `include a few more surrounding lines in old_str (and new_str) so that it is ` +
      `unique.\n\n${excerpts.join("\n…\n")}`,
  );
}

/**
 * Replaces the one occurrence of `oldStr` in `content` with `newStr`. Throws ToolError when
 * there is none (showing the nearest lines) or several (showing where). LF-only strings
 * also match a CRLF file, and the replacement then uses CRLF too.
 */
export function replaceOnce(content: string, oldStr: string, newStr: string, shownPath: string): Replaced {
  if (oldStr === newStr) throw new ToolError("old_str and new_str are identical, so there is nothing to change.");
  let matches = occurrences(content, oldStr, MAX_REPORTED_MATCHES + 1);
  if (matches.length === 0 && content.includes("\r\n") && /(^|[^\r])\n/.test(oldStr)) {
    oldStr = toCrlf(oldStr);
    newStr = toCrlf(newStr);
    matches = occurrences(content, oldStr, MAX_REPORTED_MATCHES + 1);
  }
  if (matches.length === 0) throw notFound(content, oldStr, shownPath);
  if (matches.length > 1) {
    const total = matches.length > MAX_REPORTED_MATCHES ? content.split(oldStr).length - 1 : matches.length;
    throw ambiguous(content, oldStr, matches.slice(0, MAX_REPORTED_MATCHES), total, shownPath);
  }
  const at = matches[0]!;
  return {
    content: content.slice(0, at) + newStr + content.slice(at + oldStr.length),
    line: lineNumberAt(content, at),
    offset: at,
    removedLines: Math.max(1, countLines(oldStr)),
    addedLines: countLines(newStr),
  };
}
