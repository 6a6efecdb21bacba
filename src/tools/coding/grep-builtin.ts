import { readFile } from "node:fs/promises";
import { ToolError } from "../define-tool.js";
import { GlobOverrides } from "./glob.js";
import { ALWAYS_SKIPPED, byPath, displayLine, invalidPattern, type GrepFile, type GrepLine, type GrepQuery, type GrepSearchResult } from "./grep-format.js";
import { forEachLimited, listSearchFiles } from "./walk-files.js";

/** Larger files are not searched by the built-in engine (ripgrep streams them instead). */
const MAX_FILE_BYTES = 64 * 1024 * 1024;
const PARALLEL_READS = 32;

/** The pattern as a JS RegExp: Unicode mode when the pattern allows it (\p{L} works, as in ripgrep). */
function compile(query: GrepQuery, extraFlags = ""): RegExp {
  const flags = (query.ignoreCase ? "i" : "") + extraFlags;
  try {
    return new RegExp(query.pattern, `${flags}u`);
  } catch {
    try {
      return new RegExp(query.pattern, flags);
    } catch (error) {
      throw invalidPattern(query.pattern, (error as Error).message);
    }
  }
}

/** Match lines plus `contextLines` around each, merged where they touch (as ripgrep prints them). */
function linesWithContext(lines: string[], matches: number[], contextLines: number): GrepLine[] {
  const matchSet = new Set(matches);
  const result: GrepLine[] = [];
  let nextLine = 0;
  for (const index of matches) {
    const from = Math.max(nextLine, index - contextLines);
    const to = Math.min(lines.length - 1, index + contextLines);
    for (let line = from; line <= to; line++) result.push({ number: line + 1, text: displayLine(lines[line]!), match: matchSet.has(line) });
    nextLine = Math.max(nextLine, to + 1);
  }
  return result;
}

function searchText(text: string, path: string, lineRegex: RegExp, query: GrepQuery): GrepFile | undefined {
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  const matches: number[] = [];
  for (let index = 0; index < lines.length; index++) if (lineRegex.test(lines[index]!)) matches.push(index);
  return matches.length ? { path, lines: linesWithContext(lines, matches, query.contextLines) } : undefined;
}

/**
 * The pure-JS search used when `rg` is not installed: same file selection (ignore files,
 * hidden files, glob overrides, binary files skipped) and the same result shape.
 */
export async function builtinSearch(root: string, query: GrepQuery, signal: AbortSignal): Promise<GrepSearchResult> {
  const lineRegex = compile(query);
  // A cheap whole-file test first; it can only over-match, never miss a line match.
  const fileRegex = compile(query, "m");
  const overrides = new GlobOverrides([...query.globs, ...ALWAYS_SKIPPED.map((name) => `!${name}`)]);
  const candidates = await listSearchFiles(root, query.searchPath, overrides, signal);
  const found: GrepFile[] = [];
  await forEachLimited(candidates, PARALLEL_READS, async (file) => {
    if (signal.aborted) return;
    const buffer = await readFile(file.absolute).catch(() => undefined);
    if (!buffer || buffer.length > MAX_FILE_BYTES || buffer.includes(0)) return;
    const text = buffer.toString("utf8");
    if (!fileRegex.test(text)) return;
    const result = searchText(text, file.relative, lineRegex, query);
    if (result) found.push(result);
  });
  if (signal.aborted) throw new ToolError("The search was cancelled.");
  found.sort(byPath);
  const totalMatches = found.reduce((sum, file) => sum + file.lines.filter((line) => line.match).length, 0);
  return { files: found, totalMatches, totalFiles: found.length };
}
