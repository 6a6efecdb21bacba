import stringWidth from "string-width";
import type { Style } from "./theme.js";

/** A run of text in one style. Markdown and code render to spans; wrapping works on spans. */
export interface Span {
  text: string;
  style: Style;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const TOKENS = /\n|[^\S\n]+|\S+/g;
/** A word wider than a line starts on a fresh line unless at least this much room is left. */
const MIN_ROOM_FOR_BROKEN_WORD = 8;

/** Terminal columns of plain text (fast path for ASCII, which is nearly all of it). */
export function textWidth(text: string): number {
  return PRINTABLE_ASCII.test(text) ? text.length : stringWidth(text);
}

/** Cuts text to at most `width` columns, marking a cut with an ellipsis. */
export function truncateToWidth(text: string, width: number): string {
  if (textWidth(text) <= width) return text;
  let result = "";
  let used = 0;
  for (const character of text) {
    const columns = textWidth(character);
    if (used + columns > width - 1) break;
    result += character;
    used += columns;
  }
  return `${result}…`;
}

/** Joins the spans of one line into an ANSI string, merging neighbours of the same style. */
export function spansToLine(spans: Span[]): string {
  let line = "";
  let runText = "";
  let runStyle: Style | undefined;
  for (const span of spans) {
    if (span.style !== runStyle) {
      if (runStyle && runText) line += runStyle(runText);
      runStyle = span.style;
      runText = "";
    }
    runText += span.text;
  }
  if (runStyle && runText) line += runStyle(runText);
  return line;
}

/** Splits a word that is wider than a line into pieces of at most `width` columns. */
function breakWord(word: string, width: number, firstRoom: number): string[] {
  const pieces: string[] = [];
  let piece = "";
  let used = 0;
  let room = firstRoom;
  for (const character of word) {
    const columns = textWidth(character);
    if (used + columns > room && piece) {
      pieces.push(piece);
      piece = "";
      used = 0;
      room = width;
    }
    piece += character;
    used += columns;
  }
  if (piece) pieces.push(piece);
  return pieces;
}

/** Removes the spaces a line ends with where it wrapped. */
function dropTrailingBlanks(line: Span[]): void {
  while (line.length > 0) {
    const last = line[line.length - 1]!;
    const trimmed = last.text.trimEnd();
    if (trimmed) {
      last.text = trimmed;
      return;
    }
    line.pop();
  }
}

/**
 * Word-wraps styled spans to lines of at most `width` columns. Words longer than a line are
 * broken; `\n` always starts a new line. With `trim`, spaces at a wrap point are dropped
 * (prose); without it they are kept (code).
 */
export function wrapSpans(spans: Span[], width: number, trim = true): Span[][] {
  const limit = Math.max(1, width);
  const lines: Span[][] = [[]];
  let used = 0;
  let startedByWrap = false;
  const newLine = (byWrap: boolean) => {
    if (byWrap && trim) dropTrailingBlanks(lines[lines.length - 1]!);
    lines.push([]);
    used = 0;
    startedByWrap = byWrap;
  };
  const put = (text: string, style: Style, columns: number) => {
    lines[lines.length - 1]!.push({ text, style });
    used += columns;
  };
  for (const span of spans) {
    for (const [token] of span.text.matchAll(TOKENS)) {
      if (token === "\n") {
        newLine(false);
        continue;
      }
      const columns = textWidth(token);
      const blank = !/\S/.test(token);
      if (trim && blank) {
        if (used === 0 && startedByWrap) continue;
        if (used + columns > limit) newLine(true);
        else put(token, span.style, columns);
        continue;
      }
      if (used + columns <= limit) {
        put(token, span.style, columns);
        continue;
      }
      if (!blank && columns <= limit) {
        newLine(true);
        put(token, span.style, columns);
        continue;
      }
      if (used > 0 && limit - used < MIN_ROOM_FOR_BROKEN_WORD) newLine(true);
      for (const piece of breakWord(token, limit, limit - used)) {
        const pieceColumns = textWidth(piece);
        if (used > 0 && used + pieceColumns > limit) newLine(true);
        put(piece, span.style, pieceColumns);
      }
    }
  }
  return lines;
}

/** Wraps spans and renders each line to an ANSI string. */
export function wrapToLines(spans: Span[], width: number, trim = true): string[] {
  return wrapSpans(spans, width, trim).map(spansToLine);
}
