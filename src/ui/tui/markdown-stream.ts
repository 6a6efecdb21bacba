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
 * Renders markdown that is still streaming, in time proportional to the unfinished part:
 * text arrives as chunks; each block is rendered once, when a blank line outside a code fence
 * closes it, and only the open tail is rendered again each frame. The whole text is never
 * re-read (on a long answer that would copy it on every frame).
 */
export class StreamingMarkdown {
  private consumed = 0;
  private tail = "";
  /** Closed parts of the text, each ending at a block boundary. */
  private readonly closed: string[] = [];
  private closedWidth = -1;
  private closedLines: string[] = [];

  constructor(
    private readonly theme: Theme,
    private readonly base: Style,
  ) {}

  /** Lines for the text made of `chunks` (append-only: later calls pass the same chunks and more). */
  render(chunks: readonly string[], width: number): string[] {
    if (chunks.length < this.consumed) this.reset();
    for (; this.consumed < chunks.length; this.consumed += 1) this.tail += chunks[this.consumed];
    if (width !== this.closedWidth) {
      this.closedLines = this.closed.reduce<string[]>(
        (lines, part) => this.joinParts(lines, this.renderPart(part, width)),
        [],
      );
      this.closedWidth = width;
    }
    const cut = stableMarkdownPrefixLength(this.tail);
    if (cut > 0) {
      const part = this.tail.slice(0, cut);
      this.closed.push(part);
      this.closedLines = this.joinParts(this.closedLines, this.renderPart(part, width));
      this.tail = this.tail.slice(cut);
    }
    return this.joinParts(this.closedLines, this.renderPart(this.tail, width));
  }

  private reset(): void {
    this.consumed = 0;
    this.tail = "";
    this.closed.length = 0;
    this.closedLines = [];
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
