import { renderMarkdown } from "./markdown.js";
import type { Style, Theme } from "./theme.js";

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Where a growing markdown text can be cut so that the part before the cut no longer changes
 * as text is appended: after the last blank line that is not inside a code fence.
 */
export function stableMarkdownPrefixLength(text: string): number {
  let inFence = false;
  let cut = 0;
  let lineStart = 0;
  let previousBlank = false;
  while (lineStart < text.length) {
    const newline = text.indexOf("\n", lineStart);
    if (newline < 0) break;
    const line = text.slice(lineStart, newline);
    if (FENCE.test(line)) inFence = !inFence;
    const blank = line.trim() === "";
    if (blank && !previousBlank && !inFence && lineStart > 0) cut = lineStart;
    previousBlank = blank;
    lineStart = newline + 1;
  }
  return cut;
}

/**
 * Renders markdown that is still streaming without re-rendering all of it every frame:
 * each block is rendered once when it becomes stable, and only the unfinished tail is redone.
 */
export class StreamingMarkdown {
  private prefix = "";
  private prefixWidth = -1;
  private prefixLines: string[] = [];

  constructor(
    private readonly theme: Theme,
    private readonly base: Style,
  ) {}

  render(text: string, width: number): string[] {
    const prefix = text.slice(0, stableMarkdownPrefixLength(text));
    if (width !== this.prefixWidth || !prefix.startsWith(this.prefix)) {
      this.prefix = "";
      this.prefixLines = [];
      this.prefixWidth = width;
    }
    if (prefix.length > this.prefix.length) {
      const added = this.renderPart(prefix.slice(this.prefix.length), width);
      this.prefixLines = this.joinParts(this.prefixLines, added);
      this.prefix = prefix;
    }
    return this.joinParts(this.prefixLines, this.renderPart(text.slice(prefix.length), width));
  }

  private renderPart(text: string, width: number): string[] {
    return text.trim() ? renderMarkdown(text, width, this.theme, this.base) : [];
  }

  private joinParts(first: string[], second: string[]): string[] {
    if (first.length === 0) return second;
    if (second.length === 0) return first;
    return [...first, "", ...second];
  }
}
