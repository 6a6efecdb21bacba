import { type DiffLine, type DiffLineKind, diffLines } from "../diff-lines.js";
import { terminalText } from "../terminal-text.js";
import { type Span, wrapToLines } from "./spans.js";
import type { Style, Theme } from "./theme.js";

const INDENT = "  ";

function styles(theme: Theme): Record<DiffLineKind, { line: Style; word: Style }> {
  const same = (text: string) => text;
  return {
    file: { line: theme.bold, word: theme.bold },
    hunk: { line: theme.dim, word: theme.dim },
    added: { line: theme.diffAdded, word: theme.diffAddedWord },
    removed: { line: theme.diffRemoved, word: theme.diffRemovedWord },
    context: { line: same, word: same },
  };
}

function spansOf(line: DiffLine, byKind: ReturnType<typeof styles>): Span[] {
  const style = byKind[line.kind];
  return line.parts.map((part) => ({ text: part.text, style: part.changed ? style.word : style.line }));
}

/**
 * A unified diff as coloured, indented terminal lines: added and removed lines in their colours,
 * the changed words inside a replaced line highlighted. With `limit`, only the first `limit` lines
 * of the diff are drawn; `hidden` counts the rest.
 */
export function diffView(diff: string, width: number, theme: Theme, limit = Infinity) {
  const all = diffLines(terminalText(diff));
  const byKind = styles(theme);
  const lines = all
    .slice(0, limit)
    .flatMap((line) => wrapToLines(spansOf(line, byKind), width - INDENT.length, false))
    .map((line) => INDENT + line);
  return { lines, hidden: Math.max(0, all.length - limit) };
}
