import { findNearestLines, numberedExcerpt } from "../../../shared/nearest-lines.js";
import { seekSequence } from "../../../shared/seek-sequence.js";
import { ToolError } from "../../kit/define-tool.js";
import { type LineEdit, type LineFile, newLines, type TextLine } from "./line-edits.js";

type HunkLine = { kind: " " | "-" | "+"; text: string };

interface Hunk {
  number: number;
  /** 1-based old start line from `@@ -a,b +c,d @@`; undefined for a bare `@@`. */
  oldStart?: number;
  lines: HunkLine[];
  /** `\ No newline at end of file` followed the new (true) or only the old side (false). */
  newSideNoNewline?: boolean;
}

const HEADER = /^@@\s*(?:-(\d+)(?:,\d+)?\s+\+\d+(?:,\d+)?\s*@@.*)?/;

export function looksLikeUnifiedDiff(patch: string): boolean {
  return patch.split("\n").some((line) => line.startsWith("@@"));
}

const MULTIPLE_FILES =
  "The diff touches more than one file. file_apply_patch edits one note per call: send one diff per file. Nothing " +
  "was changed.";

/** A `diff --git` line, or a `--- x` line directly followed by `+++ y`: the start of another file's diff. */
function isFileHeader(lines: readonly string[], index: number): boolean {
  const line = lines[index]!;
  return line.startsWith("diff --git ") || (line.startsWith("--- ") && (lines[index + 1] ?? "").startsWith("+++ "));
}

function parseHunks(patch: string): Hunk[] {
  const hunks: Hunk[] = [];
  let current: Hunk | undefined;
  const lines = patch.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.startsWith("@@")) {
      const oldStart = HEADER.exec(line)?.[1];
      current = {
        number: hunks.length + 1,
        oldStart: oldStart === undefined ? undefined : Number(oldStart),
        lines: [],
      };
      hunks.push(current);
    } else if (!current) {
    } else if (isFileHeader(lines, index)) {
      throw new ToolError(MULTIPLE_FILES);
    } else if (line.startsWith("\\")) {
      current.newSideNoNewline = current.lines.at(-1)?.kind !== "-";
    } else if (line === "" || line[0] === " " || line[0] === "-" || line[0] === "+") {
      current.lines.push({ kind: line === "" ? " " : (line[0] as HunkLine["kind"]), text: line.slice(1) });
    } else {
      throw new ToolError(
        `Hunk ${current.number} has a line that is not context (' '), removal ('-') or addition ('+'): '${line}'. ` +
          `Nothing was changed.`,
      );
    }
  }
  for (const hunk of hunks) {
    while (hunk.lines.length && hunk.lines.at(-1)!.kind === " " && hunk.lines.at(-1)!.text === "") hunk.lines.pop();
  }
  return hunks.filter((hunk) => hunk.lines.length > 0);
}

function hunkNotFound(hunk: Hunk, old: string[], file: LineFile): ToolError {
  const texts = file.lines.map((line) => line.text);
  const wanted = old.map((text) => `  | ${text}`).join("\n");
  const nearest = findNearestLines(texts, old);
  const where = nearest
    ? `The most similar lines in the file (line ${nearest.start + 1}), as they are ` +
      `now:\n${numberedExcerpt(texts, nearest.start - 2, nearest.start + old.length + 1)}`
    : hunk.oldStart !== undefined
      ? `Lines around ${hunk.oldStart} as they are ` +
        `now:\n${numberedExcerpt(texts, hunk.oldStart - 3, hunk.oldStart + old.length + 1)}`
      : "Nothing similar was found; read the note again with file_read_lines.";
  return new ToolError(
    `Hunk ${hunk.number} does not apply: these lines (context and '-' lines) were not ` +
      `found${hunk.oldStart ? ` at or after line ${hunk.oldStart}` : ""}:\n${wanted}\n${where}\n` +
      "Nothing was changed. Fix the hunk to match the file exactly, or use REPLACE/INSERT/DELETE commands with " +
      "line numbers.",
  );
}

/** The lines a hunk puts in place of the matched ones: file lines for context, new lines for '+'. */
function replacement(hunk: Hunk, file: LineFile, at: number): TextLine[] {
  const result: TextLine[] = [];
  let cursor = at;
  for (const line of hunk.lines) {
    if (line.kind === " ") result.push(file.lines[cursor++]!);
    else if (line.kind === "-") cursor++;
    else result.push(...newLines([line.text], file.eol));
  }
  return result;
}

/**
 * Locates every hunk in order (at its stated line or later, then anywhere after the previous
 * hunk; exact first, then ignoring trailing/surrounding whitespace) and turns it into an edit.
 */
export function parseUnifiedDiff(patch: string, file: LineFile): { edits: LineEdit[]; endsWithNewline: boolean } {
  const hunks = parseHunks(patch);
  if (hunks.length === 0) throw new ToolError("The diff has no hunk lines after its @@ headers. Nothing was changed.");
  const texts = file.lines.map((line) => line.text);
  const edits: LineEdit[] = [];
  let endsWithNewline = file.endsWithNewline;
  let cursor = 0;
  for (const hunk of hunks) {
    const old = hunk.lines.filter((line) => line.kind !== "+").map((line) => line.text);
    let at: number;
    if (old.length === 0) {
      if (hunk.oldStart === undefined)
        throw new ToolError(
          `Hunk ${hunk.number} only adds lines, so it needs a header saying where, like '@@ -5,0 +6,2 @@' (after ` +
            `line 5). Nothing was changed.`,
        );
      at = Math.min(Math.max(hunk.oldStart, cursor), texts.length);
    } else {
      const hint = hunk.oldStart === undefined ? cursor : Math.max(cursor, hunk.oldStart - 1);
      at = seekSequence(texts, old, hint);
      if (at < 0 && hint > cursor) at = seekSequence(texts, old, cursor);
      if (at < 0) throw hunkNotFound(hunk, old, file);
    }
    edits.push({
      start: at,
      deleteCount: old.length,
      insert: replacement(hunk, file, at),
      label: `hunk ${hunk.number}`,
    });
    cursor = at + old.length;
    if (hunk.newSideNoNewline !== undefined && cursor >= texts.length) endsWithNewline = !hunk.newSideNoNewline;
  }
  return { edits, endsWithNewline };
}
