import { closeSync, fstatSync, readSync } from "node:fs";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { errorMessage } from "../../shared/error-message.js";
import { ToolError } from "../../shared/tool-error.js";
import { openRegularFileSync } from "../regular-file.js";
import {
  ALWAYS_SKIPPED,
  byPath,
  displayLine,
  type GrepFile,
  type GrepLine,
  type GrepQuery,
  type GrepSearchResult,
  invalidPattern,
} from "./format.js";
import { GlobOverrides } from "./glob.js";
import { listSearchFiles } from "./walk-files.js";

/** Larger files are not searched by the built-in engine (ripgrep streams them instead). */
const MAX_FILE_BYTES = 64 * 1024 * 1024;
/**
 * Files read synchronously between two returns to the event loop. Synchronous reads are ~10×
 * faster than 50,000 thread-pool round trips; slicing keeps the UI and the abort signal live.
 */
const FILES_PER_SLICE = 200;

/**
 * The file's bytes, or undefined when it is unreadable, not a regular file (the walk saw it as
 * one, and the open descriptor is checked again: a FIFO is never waited on) or larger than MAX_FILE_BYTES.
 */
function readSmallFile(path: string): Buffer | undefined {
  let descriptor: number | undefined;
  try {
    descriptor = openRegularFileSync(path, path, true);
    const size = fstatSync(descriptor).size;
    if (size > MAX_FILE_BYTES) return undefined;
    const buffer = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < size) {
      const read = readSync(descriptor, buffer, filled, size - filled, filled);
      if (read === 0) break; // the file shrank meanwhile
      filled += read;
    }
    return buffer.subarray(0, filled);
  } catch {
    return undefined;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/** The query's glob filters, with the names never searched excluded last (so they win). */
export function searchOverrides(query: GrepQuery): GlobOverrides {
  return new GlobOverrides([...query.globs, ...ALWAYS_SKIPPED.map((name) => `!${name}`)]);
}

/** The pattern as a JS RegExp: Unicode mode when the pattern allows it (\p{L} works, as in ripgrep). */
function compile(query: GrepQuery, extraFlags = ""): RegExp {
  const flags = (query.ignoreCase ? "i" : "") + extraFlags;
  try {
    return new RegExp(query.pattern, `${flags}u`);
  } catch {
    try {
      return new RegExp(query.pattern, flags);
    } catch (error) {
      throw invalidPattern(query.pattern, errorMessage(error));
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
    for (let line = from; line <= to; line++)
      result.push({ number: line + 1, text: displayLine(lines[line]!), match: matchSet.has(line) });
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
  const candidates = await listSearchFiles(root, query.searchPath, searchOverrides(query), signal);
  const found: GrepFile[] = [];
  for (let index = 0; index < candidates.length; index++) {
    if (index % FILES_PER_SLICE === 0) {
      await yieldToEventLoop();
      if (signal.aborted) throw new ToolError("The search was cancelled.");
    }
    const file = candidates[index]!;
    const buffer = readSmallFile(file.absolute);
    if (!buffer || buffer.includes(0)) continue;
    const text = buffer.toString("utf8");
    if (!fileRegex.test(text)) continue;
    const result = searchText(text, file.relative, lineRegex, query);
    if (result) found.push(result);
  }
  found.sort(byPath);
  const totalMatches = found.reduce((sum, file) => sum + file.lines.filter((line) => line.match).length, 0);
  return { files: found, totalMatches, totalFiles: found.length };
}
