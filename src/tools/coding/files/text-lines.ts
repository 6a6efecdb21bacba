/**
 * A text split into lines without losing a byte: `texts[i] + eols[i]` is line i as in the
 * file, `starts[i]` its offset (`starts[texts.length]` is the text's length). An eol is
 * CRLF, LF or a lone CR; only a last line without terminator has "".
 */
export interface SplitText {
  texts: string[];
  eols: string[];
  starts: number[];
}

/** A line of a text file with its own terminator ("" only for a last line without one). */
export interface TextLine {
  text: string;
  eol: string;
}

/** LF-only text: the native split is several times faster than scanning for CRs too. */
function splitLfText(content: string): SplitText {
  const texts = content.split("\n");
  const endsWithNewline = content.endsWith("\n");
  if (endsWithNewline || content === "") texts.pop();
  const eols = new Array<string>(texts.length).fill("\n");
  if (!endsWithNewline && texts.length > 0) eols[texts.length - 1] = "";
  const starts = new Array<number>(texts.length + 1);
  let offset = 0;
  for (let index = 0; index < texts.length; index++) {
    starts[index] = offset;
    offset += texts[index]!.length + eols[index]!.length;
  }
  starts[texts.length] = offset;
  return { texts, eols, starts };
}

/** Splits with indexOf rather than a regex: this runs on multi-megabyte files. */
export function splitText(content: string): SplitText {
  if (!content.includes("\r")) return splitLfText(content);
  const texts: string[] = [];
  const eols: string[] = [];
  const starts: number[] = [];
  let nextCr = content.indexOf("\r");
  let nextNewline = content.indexOf("\n");
  let position = 0;
  while (position < content.length) {
    if (nextCr !== -1 && nextCr < position) nextCr = content.indexOf("\r", position);
    if (nextNewline !== -1 && nextNewline < position) nextNewline = content.indexOf("\n", position);
    const newline = nextNewline === -1 ? content.length : nextNewline;
    starts.push(position);
    if (nextCr !== -1 && nextCr < newline) {
      const crlf = content.charCodeAt(nextCr + 1) === 10;
      texts.push(content.slice(position, nextCr));
      eols.push(crlf ? "\r\n" : "\r");
      position = nextCr + (crlf ? 2 : 1);
    } else {
      texts.push(content.slice(position, newline));
      eols.push(newline < content.length ? "\n" : "");
      position = newline + 1;
    }
  }
  starts.push(content.length);
  return { texts, eols, starts };
}

/** Splits text into lines, keeping each terminator (CRLF, LF, or a lone CR). */
export function splitLines(content: string): TextLine[] {
  const { texts, eols } = splitText(content);
  return texts.map((text, index) => ({ text, eol: eols[index]! }));
}

/** Number of lines as an editor shows them ("a\nb\n" and "a\nb" both have 2). */
export function countLines(content: string): number {
  if (content === "") return 0;
  let count = 0;
  for (let index = content.indexOf("\n"); index !== -1; index = content.indexOf("\n", index + 1)) count++;
  return content.endsWith("\n") ? count : count + 1;
}

/** 1-based line number of the character at `offset`. */
export function lineNumberAt(content: string, offset: number): number {
  let line = 1;
  for (let index = content.indexOf("\n"); index !== -1 && index < offset; index = content.indexOf("\n", index + 1))
    line++;
  return line;
}

/** Offset where the line holding `index` starts. */
function lineStart(content: string, index: number): number {
  return index <= 0 ? 0 : content.lastIndexOf("\n", index - 1) + 1;
}

/** Up to `count` lines starting `before` lines above the line holding `offset` (LF or CRLF text). */
export function linesAround(
  content: string,
  offset: number,
  before: number,
  count: number,
): { first: number; lines: string[] } {
  let start = lineStart(content, offset);
  for (let step = 0; step < before && start > 0; step++) start = lineStart(content, start - 1);
  const lines: string[] = [];
  for (let position = start; lines.length < count && position < content.length; ) {
    const end = content.indexOf("\n", position);
    lines.push(content.slice(position, end === -1 ? content.length : end).replace(/\r$/, ""));
    if (end === -1) break;
    position = end + 1;
  }
  return { first: lineNumberAt(content, start), lines };
}
