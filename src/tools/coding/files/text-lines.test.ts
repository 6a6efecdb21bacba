import { describe, expect, it } from "vitest";
import { countLines, linesAround, splitLines, splitText } from "./text-lines.js";

describe("splitText", () => {
  it.each([
    ["", [], []],
    ["a", ["a"], [""]],
    ["a\nb\n", ["a", "b"], ["\n", "\n"]],
    ["a\r\nb\rc\nd", ["a", "b", "c", "d"], ["\r\n", "\r", "\n", ""]],
    ["\n\n", ["", ""], ["\n", "\n"]],
    ["x\r", ["x"], ["\r"]],
  ])("splits %j without losing a byte", (content, texts, eols) => {
    const split = splitText(content);
    expect(split.texts).toEqual(texts);
    expect(split.eols).toEqual(eols);
    expect(split.starts).toHaveLength(texts.length + 1);
    expect(
      split.texts.map((_text, index) => content.slice(split.starts[index], split.starts[index + 1])).join(""),
    ).toBe(content);
    expect(split.texts.map((text, index) => text + split.eols[index]).join("")).toBe(content);
  });

  it("offers the same lines as objects", () => {
    expect(splitLines("a\r\nb")).toEqual([
      { text: "a", eol: "\r\n" },
      { text: "b", eol: "" },
    ]);
  });
});

describe("countLines and linesAround", () => {
  it("counts lines as an editor shows them", () => {
    expect([countLines(""), countLines("a"), countLines("a\n"), countLines("a\nb")]).toEqual([0, 1, 1, 2]);
  });

  it("returns the lines around an offset with the number of the first", () => {
    const content = "one\r\ntwo\r\nthree\r\nfour\r\n";
    expect(linesAround(content, content.indexOf("three"), 1, 2)).toEqual({ first: 2, lines: ["two", "three"] });
    expect(linesAround(content, 0, 3, 1)).toEqual({ first: 1, lines: ["one"] });
    expect(linesAround("\nx\n", 1, 5, 5)).toEqual({ first: 1, lines: ["", "x"] });
  });
});
