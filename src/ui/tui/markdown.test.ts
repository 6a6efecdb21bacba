import { stripVTControlCharacters as plain } from "node:util";
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "./markdown.js";
import { StreamingMarkdown, stableMarkdownPrefixLength } from "./markdown-stream.js";
import { textWidth } from "./spans.js";
import { COLOR_THEME, MONOCHROME_THEME } from "./theme.js";

const BOLD = "\x1b[1m";
const GREEN = "\x1b[32m";
const BRIGHT_CYAN = "\x1b[96m";
const KEYWORD = "\x1b[95m";
const STRING = "\x1b[93m";

const colored = (text: string, width = 60) => renderMarkdown(text, width, COLOR_THEME, COLOR_THEME.assistant);
const layout = (text: string, width = 60) => colored(text, width).map((line) => plain(line));

describe("renderMarkdown", () => {
  it("renders headings in bold, without the # marks", () => {
    const lines = colored("# Title\n\nBody text.");
    expect(plain(lines[0]!)).toBe("Title");
    expect(lines[0]).toContain(BOLD);
    expect(layout("# Title\n\nBody text.")).toEqual(["Title", "", "Body text."]);
  });

  it("renders bold, italics and inline code inside green assistant text", () => {
    const [line] = colored("Use **care** with `rm -rf` please");
    expect(plain(line!)).toBe("Use care with rm -rf please");
    expect(line).toContain(`${BOLD}${GREEN}care`);
    expect(line).toContain(`${BRIGHT_CYAN}rm -rf`);
    expect(line!.startsWith(`${GREEN}Use `)).toBe(true);
  });

  it("renders bullet, numbered, nested and task lists with hanging indents", () => {
    expect(layout("- one\n- two\n  - nested\n\n3. third\n4. fourth\n\n- [x] done\n- [ ] todo")).toEqual([
      "• one",
      "• two",
      "  • nested",
      "",
      "3. third",
      "4. fourth",
      "",
      "• [x] done",
      "• [ ] todo",
    ]);
    expect(layout("- a list item that is long enough to wrap onto the next line", 30)).toEqual([
      "• a list item that is long",
      "  enough to wrap onto the next",
      "  line",
    ]);
  });

  it("renders fenced code with the language, a gutter and simple highlighting, keeping indentation", () => {
    const lines = colored('```js\nif (ready) {\n  return "yes"; // done\n}\n```');
    expect(lines.map((line) => plain(line))).toEqual(["╭─ js", "│ if (ready) {", '│   return "yes"; // done', "│ }"]);
    expect(lines[1]).toContain(`${KEYWORD}if`);
    expect(lines[2]).toContain(`${STRING}"yes"`);
  });

  it("renders an unclosed code fence (a streaming answer) as code so far", () => {
    expect(layout("Here:\n\n```py\nprint('hi')  # greet")).toEqual(["Here:", "", "╭─ py", "│ print('hi')  # greet"]);
  });

  it("renders quotes, rules, links and tables", () => {
    expect(layout("> quoted\n\n---\n\n[docs](https://example.org)")).toEqual([
      "│ quoted",
      "",
      "─".repeat(40),
      "",
      "docs (https://example.org)",
    ]);
    expect(layout("| a | bb |\n|---|---|\n| ccc | d |")).toEqual(["a   │ bb", "────┼───", "ccc │ d "]);
  });

  it("wraps every line to the width, breaking words longer than a line", () => {
    const lines = layout(`${"word ".repeat(30)}${"x".repeat(50)}`, 24);
    for (const line of lines) expect(textWidth(line)).toBeLessThanOrEqual(24);
    expect(lines.join("")).toContain("x".repeat(20));
  });

  it("uses no colour at all with the monochrome theme (NO_COLOR)", () => {
    const lines = renderMarkdown(
      "# T\n\n**b** `c`\n\n```js\nconst a = 1;\n```",
      40,
      MONOCHROME_THEME,
      MONOCHROME_THEME.assistant,
    ).join("\n");
    expect(lines).not.toMatch(/\x1b\[(3\d|9\d)m/);
    expect(lines).toContain(BOLD);
  });
});

describe("streaming markdown", () => {
  it("cuts only after blank lines outside code fences", () => {
    expect(stableMarkdownPrefixLength("para one\n\npara two")).toBe("para one\n".length);
    expect(stableMarkdownPrefixLength("```\ncode\n\nmore code")).toBe(0);
    expect(stableMarkdownPrefixLength("```\ncode\n\n```\n\nafter")).toBe("```\ncode\n\n```\n".length);
  });

  it("renders a growing text like a full render of the same text", () => {
    const text = "# Plan\n\nFirst **step** here.\n\n- a\n- b\n\n```sh\nls\n\npwd\n```\n\nDone.";
    const stream = new StreamingMarkdown(COLOR_THEME, COLOR_THEME.assistant);
    const chunks: string[] = [];
    for (let start = 0; start < text.length; start += 3) {
      chunks.push(text.slice(start, start + 3));
      stream.render(chunks, 50);
    }
    expect(stream.render(chunks, 50)).toEqual(renderMarkdown(text, 50, COLOR_THEME, COLOR_THEME.assistant));
  });

  it("re-renders everything when the width changes", () => {
    const stream = new StreamingMarkdown(MONOCHROME_THEME, MONOCHROME_THEME.assistant);
    const chunks = ["alpha beta gamma delta\n\nepsi", "lon"];
    stream.render(chunks, 80);
    expect(stream.render(chunks, 12).map((line) => plain(line))).toEqual(["alpha beta", "gamma delta", "", "epsilon"]);
  });
});
