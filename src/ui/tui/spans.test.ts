import { describe, expect, it } from "vitest";
import { spansToLine, textWidth, wrapSpans, wrapToLines } from "./spans.js";
import { COLOR_THEME } from "./theme.js";

const plainStyle = (text: string) => text;
const lines = (text: string, width: number, trim = true) => wrapToLines([{ text, style: plainStyle }], width, trim);

describe("wrapping spans", () => {
  it("wraps at word boundaries, dropping the spaces at the break", () => {
    expect(lines("the quick brown fox jumps", 10)).toEqual(["the quick", "brown fox", "jumps"]);
  });

  it("keeps explicit line breaks and leading indentation", () => {
    expect(lines("one\n  two", 20)).toEqual(["one", "  two"]);
    expect(lines("    code line", 9, false)).toEqual(["    code ", "line"]);
  });

  it("breaks words longer than the width", () => {
    expect(lines("abcdefghij", 4)).toEqual(["abcd", "efgh", "ij"]);
  });

  it("measures wide characters (emoji, CJK) as two columns", () => {
    expect(textWidth("🔧 ok")).toBe(5);
    expect(textWidth("日本")).toBe(4);
    for (const line of lines("日本語のテキストを折り返す", 6)) expect(textWidth(line)).toBeLessThanOrEqual(6);
  });

  it("keeps each span's style across a wrap", () => {
    const wrapped = wrapSpans(
      [
        { text: "green words ", style: COLOR_THEME.assistant },
        { text: "cyan words", style: COLOR_THEME.you },
      ],
      12,
    );
    expect(wrapped.map(spansToLine)).toEqual(["\x1b[32mgreen words\x1b[39m", "\x1b[36mcyan words\x1b[39m"]);
  });
});
