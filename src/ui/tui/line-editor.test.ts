import { describe, expect, it } from "vitest";
import { edit, type LineState } from "./line-editor.js";

const at = (marked: string): LineState => ({ text: marked.replace("|", ""), cursor: marked.indexOf("|") });
const show = (state: LineState): string => `${state.text.slice(0, state.cursor)}|${state.text.slice(state.cursor)}`;

describe("line editing", () => {
  it("inserts at the cursor and moves by characters, including surrogate pairs", () => {
    expect(show(edit.insert(at("ab|d"), "c"))).toBe("abc|d");
    expect(show(edit.left(at("a👋|")))).toBe("a|👋");
    expect(show(edit.right(at("a|👋b")))).toBe("a👋|b");
    expect(show(edit.left(at("|ab")))).toBe("|ab");
    expect(show(edit.right(at("ab|")))).toBe("ab|");
  });

  it("Home/End (Ctrl+A/E) go to the ends of the current line of a multi-line input", () => {
    expect(show(edit.home(at("one\ntw|o")))).toBe("one\n|two");
    expect(show(edit.end(at("o|ne\ntwo")))).toBe("one|\ntwo");
    expect(show(edit.home(at("abc|")))).toBe("|abc");
  });

  it("Backspace deletes before the cursor, Delete under it", () => {
    expect(show(edit.backspace(at("ab|c")))).toBe("a|c");
    expect(show(edit.backspace(at("x👋|")))).toBe("x|");
    expect(show(edit.delete(at("a|bc")))).toBe("a|c");
    expect(show(edit.delete(at("abc|")))).toBe("abc|");
  });

  it("Ctrl+U, Ctrl+K and Ctrl+W kill to the start, to the end and the word before", () => {
    expect(show(edit.killToStart(at("hello wor|ld")))).toBe("|ld");
    expect(show(edit.killToEnd(at("hello wor|ld")))).toBe("hello wor|");
    expect(show(edit.killWordBefore(at("git commit  |-m")))).toBe("git |-m");
    expect(show(edit.killWordAfter(at("git| commit -m")))).toBe("git| -m");
  });

  it("moves by words", () => {
    expect(show(edit.wordLeft(at("one two thr|ee")))).toBe("one two |three");
    expect(show(edit.wordRight(at("o|ne two")))).toBe("one| two");
  });
});
