import { ToolError } from "../../shared/tool-error.js";

/** One line of a search result: a match or a context line around one. */
export interface GrepLine {
  number: number;
  text: string;
  match: boolean;
}

/** The matches of one file, lines in file order. */
export interface GrepFile {
  /** Posix path relative to the working dir. */
  path: string;
  lines: GrepLine[];
}

/**
 * What a search engine (ripgrep or the built-in one) found. `files` are sorted by path
 * and hold at least the first `maxResults` matching lines; totals count everything.
 */
export interface GrepSearchResult {
  files: GrepFile[];
  totalMatches: number;
  totalFiles: number;
}

export interface GrepQuery {
  pattern: string;
  /** Glob filters (ripgrep `--glob` syntax), already split; empty = every file. */
  globs: string[];
  contextLines: number;
  maxResults: number;
  ignoreCase: boolean;
  /** Where to search: posix path relative to the working dir, "." for all of it. */
  searchPath: string;
}

/** Never searched: VCS data, dependencies, Marvin's own state, tickets (use the ticket tools). */
export const ALWAYS_SKIPPED = [".git", "node_modules", ".marvin", ".tickets"] as const;

const MAX_LINE_CHARS = 300;

export const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** Strips the line terminator and cuts very long (minified) lines. */
export function displayLine(text: string): string {
  const line = text.replace(/\r?\n$/, "").replace(/\r$/, "");
  return line.length > MAX_LINE_CHARS
    ? `${line.slice(0, MAX_LINE_CHARS)}… [${line.length - MAX_LINE_CHARS} more characters]`
    : line;
}

/** The lines of `file` to show when only its first `budget` matches are kept. */
function keptLines(file: GrepFile, budget: number, contextLines: number): { lines: GrepLine[]; matches: number } {
  const matchNumbers = file.lines.filter((line) => line.match).map((line) => line.number);
  const kept = matchNumbers.slice(0, budget);
  if (kept.length === matchNumbers.length) return { lines: file.lines, matches: kept.length };
  const limit = Math.min((kept.at(-1) ?? 0) + contextLines, matchNumbers[kept.length]! - 1);
  return { lines: file.lines.filter((line) => line.number <= limit), matches: kept.length };
}

function formatFile(path: string, lines: GrepLine[]): string {
  const out = [path];
  let previous: number | undefined;
  for (const line of lines) {
    if (previous !== undefined && line.number !== previous + 1) out.push("--");
    out.push(`${line.number}${line.match ? ":" : "-"}${line.text}`);
    previous = line.number;
  }
  return out.join("\n");
}

/** How results name what was searched, and how the model can narrow a search that found too much. */
interface GrepWording {
  /** The whole tree, as in "No matches … in the working dir". */
  rootName: string;
  /** The advice after a cut result: "Narrow the pattern, pass glob_filter or path, or raise max_results." */
  narrowing: string;
}

const WORKING_DIR_WORDING: GrepWording = {
  rootName: "the working dir",
  narrowing: "Narrow the pattern, pass glob_filter or path, or raise max_results.",
};

/** The text the model reads: matches grouped by file (`12:` match, `13-` context), then a summary. */
export function formatGrepResult(
  result: GrepSearchResult,
  query: GrepQuery,
  wording: GrepWording = WORKING_DIR_WORDING,
): string {
  if (result.totalMatches === 0) {
    const where = query.searchPath === "." ? wording.rootName : query.searchPath;
    const filter = query.globs.length ? ` (files matching ${query.globs.join(", ")})` : "";
    return `No matches for /${query.pattern}/${query.ignoreCase ? "i" : ""} in ${where}${filter}.`;
  }
  const blocks: string[] = [];
  let shown = 0;
  let shownFiles = 0;
  for (const file of result.files) {
    if (shown >= query.maxResults) break;
    const { lines, matches } = keptLines(file, query.maxResults - shown, query.contextLines);
    blocks.push(formatFile(file.path, lines));
    shown += matches;
    shownFiles++;
  }
  const files = (count: number) => `${count} file${count === 1 ? "" : "s"}`;
  const lines = (count: number) => `${count} matching line${count === 1 ? "" : "s"}`;
  const summary =
    shown < result.totalMatches
      ? `Showing the first ${lines(shown)} (in ${files(shownFiles)}) of ${result.totalMatches} in ` +
        `${files(result.totalFiles)}; ${result.totalMatches - shown} more not shown. ${wording.narrowing}`
      : `${lines(result.totalMatches)} in ${files(result.totalFiles)}.`;
  return `${blocks.join("\n\n")}\n\n${summary}`;
}

export function invalidPattern(pattern: string, detail: string): ToolError {
  return new ToolError(
    `Invalid regex pattern /${pattern}/: ${detail.trim()}\nEscape special characters (\\( \\[ \\. \\*) to search for ` +
      `them literally.`,
  );
}
