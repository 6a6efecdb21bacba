import { nearestLinesHint } from "../../../shared/nearest-lines.js";
import { seekSequence } from "../../../shared/seek-sequence.js";
import type { ChunkLine, UpdateChunk } from "./codex-patch.js";
import { type SplitText, splitText } from "./text-lines.js";

/** An update chunk that cannot be placed in the file; the message is written for the model. */
export class ChunkMismatchError extends Error {
  override readonly name = "ChunkMismatchError";
}

interface Replacement {
  start: number;
  /** File lines covered by the chunk's context and removed lines. */
  length: number;
  lines: ChunkLine[];
}

const oldSide = (lines: readonly ChunkLine[]) => lines.filter((line) => line.kind !== "add").map((line) => line.text);

/** Codex's second try: without a trailing empty line on the old side (and on the new side). */
function withoutTrailingEmptyLine(lines: readonly ChunkLine[]): ChunkLine[] | undefined {
  const result = [...lines];
  const lastOld = result.findLastIndex((line) => line.kind !== "add");
  if (lastOld === -1 || result[lastOld]!.text !== "") return undefined;
  result.splice(lastOld, 1);
  const lastNew = result.findLastIndex((line) => line.kind !== "remove");
  if (lastNew !== -1 && result[lastNew]!.kind === "add" && result[lastNew]!.text === "") result.splice(lastNew, 1);
  return result;
}

function locateChunk(
  texts: readonly string[],
  chunk: UpdateChunk,
  cursor: number,
  path: string,
): Replacement & { cursor: number } {
  if (chunk.anchor !== undefined) {
    const at = seekSequence(texts, [chunk.anchor], cursor);
    if (at === -1)
      throw new ChunkMismatchError(
        `Failed to find context '${chunk.anchor}' in ${path}.\n${nearestLinesHint(texts, [chunk.anchor])}`,
      );
    cursor = at + 1;
  }
  if (oldSide(chunk.lines).length === 0) return { start: texts.length, length: 0, lines: chunk.lines, cursor };
  let lines = chunk.lines;
  let at = seekSequence(texts, oldSide(lines), cursor, chunk.endOfFile);
  const shorter = at === -1 ? withoutTrailingEmptyLine(lines) : undefined;
  if (shorter) {
    at = seekSequence(texts, oldSide(shorter), cursor, chunk.endOfFile);
    if (at !== -1) lines = shorter;
  }
  if (at === -1) {
    const wanted = oldSide(chunk.lines);
    throw new ChunkMismatchError(
      `Failed to find expected lines in ` +
        `${path}${chunk.endOfFile ? " (at the end of the file)" : ""}:\n${wanted.join("\n")}\n\n` +
        nearestLinesHint(texts, wanted),
    );
  }
  const length = oldSide(lines).length;
  return { start: at, length, lines, cursor: at + length };
}

/** The text replacing the chunk's lines: context lines keep the file's bytes and terminator, added lines take `eol`. */
function replacementText(split: SplitText, replacement: Replacement, eol: string): string {
  let text = "";
  let line = replacement.start;
  for (const chunkLine of replacement.lines) {
    if (chunkLine.kind === "context") {
      text += split.texts[line]! + (split.eols[line] || eol);
      line++;
    } else if (chunkLine.kind === "remove") line++;
    else text += chunkLine.text + eol;
  }
  return text;
}

/**
 * Offset of the first place at or after `from` where `lines` stand as whole lines of the LF text `content`, or -1.
 * A block ending in an empty line does not match the nothing after a final line break (splitText has no line there).
 */
function findLines(content: string, lines: readonly string[], from: number): number {
  const needle = lines.join("\n");
  for (let at = content.indexOf(needle, from); at !== -1 && at < content.length; at = content.indexOf(needle, at + 1)) {
    const end = at + needle.length;
    const startsLine = at === 0 || content[at - 1] === "\n";
    const endsLine = content[end] === "\n" || (end === content.length && !content.endsWith("\n"));
    if (startsLine && endsLine) return at;
  }
  return -1;
}

/**
 * The common case done without splitting the file: LF text where every chunk's lines (and anchor) are found exactly.
 * It finds what the exact pass of seekSequence finds, the first exact match from the cursor on; undefined when a chunk
 * needs more (a loose match, the end of the file, no old lines), and applyUpdateChunks goes line by line.
 */
function applyExactMatches(content: string, chunks: readonly UpdateChunk[]): string | undefined {
  if (content.includes("\r")) return undefined;
  let result = "";
  let copied = 0;
  let cursor = 0;
  for (const chunk of chunks) {
    const old = oldSide(chunk.lines);
    if (chunk.endOfFile || old.length === 0) return undefined;
    if (chunk.anchor !== undefined) {
      const anchor = findLines(content, [chunk.anchor], cursor);
      if (anchor === -1) return undefined;
      cursor = anchor + chunk.anchor.length + 1;
    }
    const at = findLines(content, old, cursor);
    if (at === -1) return undefined;
    result += content.slice(copied, at);
    for (const line of chunk.lines) if (line.kind !== "remove") result += `${line.text}\n`;
    copied = cursor = at + old.join("\n").length + 1;
  }
  result += content.slice(copied);
  return result === "" || result.endsWith("\n") ? result : `${result}\n`;
}

/**
 * Applies the chunks of one `*** Update File` to `content`, in order, preserving each line's
 * own terminator (Codex's preserve-line-endings mode). The result always ends with a line break.
 * Untouched stretches are copied as slices, so a small edit of a large file stays cheap.
 * Throws ChunkMismatchError when a chunk cannot be placed.
 */
export function applyUpdateChunks(content: string, chunks: readonly UpdateChunk[], path: string): string {
  const exact = applyExactMatches(content, chunks);
  if (exact !== undefined) return exact;
  const split = splitText(content);
  const eol = split.eols.find((ending) => ending !== "") ?? "\n";
  const replacements: Replacement[] = [];
  let cursor = 0;
  for (const chunk of chunks) {
    const located = locateChunk(split.texts, chunk, cursor, path);
    cursor = located.cursor;
    replacements.push(located);
  }
  replacements.sort((a, b) => a.start - b.start);
  let result = "";
  let copied = 0;
  for (const replacement of replacements) {
    if (replacement.start > copied) {
      result += content.slice(split.starts[copied], split.starts[replacement.start]);
      if (split.eols[replacement.start - 1] === "") result += eol;
    }
    result += replacementText(split, replacement, eol);
    copied = Math.max(copied, replacement.start + replacement.length);
  }
  result += content.slice(split.starts[copied]);
  return result === "" || result.endsWith("\n") || result.endsWith("\r") ? result : result + eol;
}
