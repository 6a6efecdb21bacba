import { lexer, type Token, type Tokens } from "marked";
import { highlightLine } from "./highlight.js";
import { type Span, spansToLine, textWidth, wrapToLines } from "./spans.js";
import type { Style, Theme } from "./theme.js";

interface RenderContext {
  theme: Theme;
  /** Style of ordinary text (the speaker's colour). */
  base: Style;
}

const compose =
  (outer: Style, inner: Style): Style =>
  (text) =>
    outer(inner(text));

/** Inline tokens as spans; `wrap` layers emphasis over the base style. */
function inlineSpans(tokens: Token[] | undefined, context: RenderContext, wrap: Style = (text) => text): Span[] {
  if (!tokens) return [];
  const { theme, base } = context;
  const styled = (text: string, style: Style = base): Span => ({ text, style: compose(wrap, style) });
  return tokens.flatMap((token): Span[] => {
    switch (token.type) {
      case "strong":
        return inlineSpans((token as Tokens.Strong).tokens, context, compose(wrap, theme.bold));
      case "em":
        return inlineSpans((token as Tokens.Em).tokens, context, compose(wrap, theme.italic));
      case "del":
        return inlineSpans((token as Tokens.Del).tokens, context, compose(wrap, theme.strike));
      case "codespan":
        return [styled((token as Tokens.Codespan).text, theme.code)];
      case "br":
        return [styled("\n")];
      case "link": {
        const link = token as Tokens.Link;
        if (link.text === link.href || link.href.startsWith("mailto:")) return [styled(link.text, theme.link)];
        return [...inlineSpans(link.tokens, context, wrap), styled(" "), styled(`(${link.href})`, theme.link)];
      }
      case "image":
        return [styled(`[image: ${(token as Tokens.Image).text}]`)];
      case "text": {
        const text = token as Tokens.Text;
        return text.tokens ? inlineSpans(text.tokens, context, wrap) : [styled(text.text)];
      }
      default:
        return [styled("text" in token && typeof token.text === "string" ? token.text : token.raw)];
    }
  });
}

function prefixLines(lines: string[], first: string, rest: string): string[] {
  return lines.map((line, index) => (index === 0 ? first : rest) + line);
}

function renderCode(code: Tokens.Code, width: number, context: RenderContext): string[] {
  const { theme } = context;
  const language = code.lang?.split(/\s/)[0] ?? "";
  const bar = theme.muted("│ ");
  const lines = code.text
    .split("\n")
    .flatMap((line) => wrapToLines(highlightLine(line, language, theme), width - 2, false));
  const header = language ? [theme.muted(`╭─ ${language}`)] : [];
  return [...header, ...lines.map((line) => bar + line)];
}

function renderList(list: Tokens.List, width: number, context: RenderContext): string[] {
  const start = typeof list.start === "number" ? list.start : 1;
  return list.items.flatMap((item, index) => {
    const checkbox = item.task ? (item.checked ? "[x] " : "[ ] ") : "";
    const marker = (list.ordered ? `${start + index}. ` : "• ") + checkbox;
    const markerWidth = textWidth(marker);
    const body = renderBlocks(
      item.tokens.filter((token) => token.type !== "checkbox"),
      width - markerWidth,
      context,
      item.loose,
    );
    return prefixLines(body.length ? body : [""], context.base(marker), " ".repeat(markerWidth));
  });
}

function renderTable(table: Tokens.Table, width: number, context: RenderContext): string[] {
  const { theme } = context;
  const rows = [table.header, ...table.rows].map((row, rowIndex) =>
    row.map((cell) => inlineSpans(cell.tokens, context, rowIndex === 0 ? theme.bold : undefined)),
  );
  const cellWidth = (spans: Span[] | undefined) => (spans ?? []).reduce((sum, span) => sum + textWidth(span.text), 0);
  const widths = table.header.map((_, column) => Math.max(...rows.map((row) => cellWidth(row[column]))));
  const separator: Span = { text: " │ ", style: theme.muted };
  const lineSpans = rows.map((row) =>
    row.flatMap((cell, column) => [
      ...(column > 0 ? [separator] : []),
      ...cell,
      { text: " ".repeat(Math.max(0, widths[column]! - cellWidth(cell))), style: context.base },
    ]),
  );
  const rule: Span = { text: widths.map((columnWidth) => "─".repeat(columnWidth)).join("─┼─"), style: theme.muted };
  return [lineSpans[0]!, [rule], ...lineSpans.slice(1)].flatMap((spans) => wrapToLines(spans, width));
}

function renderBlock(token: Token, width: number, context: RenderContext): string[] {
  const { theme } = context;
  switch (token.type) {
    case "heading": {
      const heading = token as Tokens.Heading;
      const style = heading.depth === 1 ? compose(theme.underline, theme.heading) : theme.heading;
      return wrapToLines(inlineSpans(heading.tokens, { theme, base: style }), width);
    }
    case "paragraph":
      return wrapToLines(inlineSpans((token as Tokens.Paragraph).tokens, context), width);
    case "text": {
      const text = token as Tokens.Text;
      return wrapToLines(
        text.tokens ? inlineSpans(text.tokens, context) : [{ text: text.text, style: context.base }],
        width,
      );
    }
    case "code":
      return renderCode(token as Tokens.Code, width, context);
    case "list":
      return renderList(token as Tokens.List, width, context);
    case "blockquote": {
      const inner = renderBlocks(
        (token as Tokens.Blockquote).tokens,
        width - 2,
        { theme, base: compose(theme.italic, context.base) },
        true,
      );
      return inner.map((line) => theme.muted("│ ") + line);
    }
    case "hr":
      return [spansToLine([{ text: "─".repeat(Math.max(1, Math.min(width, 40))), style: theme.muted }])];
    case "table":
      return renderTable(token as Tokens.Table, width, context);
    case "space":
    case "def":
      return [];
    default:
      return wrapToLines([{ text: token.raw.replace(/\n+$/, ""), style: context.base }], width);
  }
}

function renderBlocks(tokens: Token[], width: number, context: RenderContext, spaced: boolean): string[] {
  const lines: string[] = [];
  for (const token of tokens) {
    const block = renderBlock(token, Math.max(1, width), context);
    if (block.length === 0) continue;
    if (spaced && lines.length > 0) lines.push("");
    lines.push(...block);
  }
  return lines;
}

/**
 * Markdown as terminal lines no wider than `width`: headings, emphasis, inline code, lists,
 * quotes, tables, and fenced code blocks with simple highlighting. Incomplete markdown (an
 * answer still streaming, an unclosed fence) renders as far as it goes.
 */
export function renderMarkdown(text: string, width: number, theme: Theme, base: Style): string[] {
  return renderBlocks(lexer(text), width, { theme, base }, true);
}
