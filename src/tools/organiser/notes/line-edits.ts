import { ToolError } from "../../kit/define-tool.js";

/** A line with its own terminator ("" only for a last line without one). */
export interface TextLine {
  text: string;
  eol: string;
}

/**
 * One change to a file's lines, in the coordinates of the file before the patch:
 * remove `deleteCount` lines at 0-based `start`, put `insert` there.
 */
export interface LineEdit {
  start: number;
  deleteCount: number;
  insert: TextLine[];
  /** How the edit is named in error messages ("hunk 2", "REPLACE 3-5"). */
  label: string;
}

/** A file split into lines, remembering its line ending and whether it ends with one. */
export interface LineFile {
  lines: TextLine[];
  eol: string;
  endsWithNewline: boolean;
}

export function toLineFile(content: string): LineFile {
  const lines: TextLine[] = [];
  const pattern = /([^\r\n]*)(\r\n|\n|\r|$)/g;
  for (let match = pattern.exec(content); match && match.index < content.length; match = pattern.exec(content)) {
    lines.push({ text: match[1]!, eol: match[2]! });
  }
  const eol = lines.find((line) => line.eol !== "")?.eol ?? "\n";
  return { lines, eol, endsWithNewline: content === "" || lines.at(-1)?.eol !== "" };
}

/** New lines written by a patch take the file's own line ending. */
export function newLines(texts: readonly string[], eol: string): TextLine[] {
  return texts.map((text) => ({ text, eol }));
}

/** Applies edits all at once (bottom to top); overlapping edits are refused before anything changes. */
export function applyLineEdits(file: LineFile, edits: readonly LineEdit[]): LineFile {
  const ordered = [...edits].sort((a, b) => a.start - b.start || a.deleteCount - b.deleteCount);
  for (let index = 1; index < ordered.length; index++) {
    const previous = ordered[index - 1]!;
    const current = ordered[index]!;
    if (current.start < previous.start + previous.deleteCount) {
      throw new ToolError(
        `${previous.label} and ${current.label} change the same lines. Combine them into one edit; nothing ` +
          `was changed.`,
      );
    }
  }
  const lines = [...file.lines];
  for (const edit of ordered.reverse()) lines.splice(edit.start, edit.deleteCount, ...edit.insert);
  return { ...file, lines };
}

/** Joins the lines back: every line but the last gets a terminator; the last one only if the file should end with one.
 * */
export function renderLineFile(file: LineFile): string {
  const last = file.lines.length - 1;
  return file.lines
    .map((line, index) => line.text + (index < last || file.endsWithNewline ? line.eol || file.eol : ""))
    .join("");
}
