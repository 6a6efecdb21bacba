import { describe, expect, it } from "vitest";
import { type InputEvent, KeyParser } from "./key-parser.js";

const parse = (...chunks: string[]): InputEvent[] => {
  const parser = new KeyParser();
  return chunks.flatMap((chunk) => parser.push(chunk));
};
const key = (name: string, modifiers: Partial<{ ctrl: boolean; meta: boolean; shift: boolean }> = {}) => ({
  kind: "key",
  name,
  ctrl: false,
  meta: false,
  shift: false,
  ...modifiers,
});

describe("KeyParser", () => {
  it("tells Backspace (DEL byte) from the Delete key", () => {
    expect(parse("\x7f")).toEqual([key("backspace")]);
    expect(parse("\x1b[3~")).toEqual([key("delete")]);
    expect(parse("\b")).toEqual([key("backspace")]);
  });

  it("reads Ctrl+letters, Enter and Tab", () => {
    expect(parse("\x01\x05\x15\x17\x12\x03\x04")).toEqual(
      ["a", "e", "u", "w", "r", "c", "d"].map((name) => key(name, { ctrl: true })),
    );
    expect(parse("\r")).toEqual([key("enter")]);
    expect(parse("\t")).toEqual([key("tab")]);
    expect(parse("src/ag\t")).toEqual([{ kind: "text", text: "src/ag" }, key("tab")]);
  });

  it("reads arrows, Home/End and paging keys in their common encodings, with modifiers", () => {
    expect(parse("\x1b[A\x1b[B\x1b[C\x1b[D")).toEqual([key("up"), key("down"), key("right"), key("left")]);
    expect(parse("\x1bOA")).toEqual([key("up")]);
    expect(parse("\x1b[H\x1b[F\x1b[1~\x1b[4~\x1bOH\x1bOF")).toEqual([
      key("home"),
      key("end"),
      key("home"),
      key("end"),
      key("home"),
      key("end"),
    ]);
    expect(parse("\x1b[5~\x1b[6~")).toEqual([key("pageup"), key("pagedown")]);
    expect(parse("\x1b[1;2A\x1b[1;2B")).toEqual([key("up", { shift: true }), key("down", { shift: true })]);
    expect(parse("\x1b[1;5D\x1b[1;5H")).toEqual([key("left", { ctrl: true }), key("home", { ctrl: true })]);
  });

  it("reads Alt+key as meta", () => {
    expect(parse("\x1bb\x1bf\x1b\x7f\x1b\r")).toEqual([
      key("b", { meta: true }),
      key("f", { meta: true }),
      key("backspace", { meta: true }),
      key("enter", { meta: true }),
    ]);
  });

  it("keeps typed text together and treats a trailing newline as Enter", () => {
    expect(parse("hello")).toEqual([{ kind: "text", text: "hello" }]);
    expect(parse("hello\r")).toEqual([{ kind: "text", text: "hello" }, key("enter")]);
    expect(parse("héllo 👋")).toEqual([{ kind: "text", text: "héllo 👋" }]);
  });

  it("turns several lines arriving at once into one paste instead of several submissions", () => {
    expect(parse("first line\rsecond line\r")).toEqual([{ kind: "paste", text: "first line\nsecond line" }]);
  });

  it("collects a bracketed paste, even split across reads, with its newlines", () => {
    expect(parse("\x1b[200~one\r\ntwo\rthree\x1b[201~")).toEqual([{ kind: "paste", text: "one\ntwo\nthree" }]);
    expect(parse("\x1b[20", "0~line 1\nli", "ne 2\x1b[2", "01~x")).toEqual([
      { kind: "paste", text: "line 1\nline 2" },
      { kind: "text", text: "x" },
    ]);
  });

  it("takes escape sequences inside a paste neither as keys nor into the text", () => {
    expect(parse("\x1b[200~up\x1b[A, title\x1b]0;pwned\x07, clear\u009b2J\x1b[201~")).toEqual([
      { kind: "paste", text: "up, title, clear" },
    ]);
    expect(parse("typed\u009b2J")).toEqual([{ kind: "text", text: "typed" }]);
  });

  it("reports mouse wheel notches (SGR and legacy encodings) and ignores other mouse events", () => {
    expect(parse("\x1b[<64;10;5M\x1b[<65;10;5M")).toEqual([
      { kind: "wheel", direction: "up" },
      { kind: "wheel", direction: "down" },
    ]);
    expect(parse("\x1b[<0;10;5M\x1b[<0;10;5m")).toEqual([]);
    expect(parse(`\x1b[M${String.fromCharCode(96)}!!`)).toEqual([{ kind: "wheel", direction: "up" }]);
  });

  it("waits for the rest of an escape sequence split across reads; a lone ESC is the Escape key once flushed", () => {
    const parser = new KeyParser();
    expect(parser.push("\x1b[1;")).toEqual([]);
    expect(parser.hasPending).toBe(true);
    expect(parser.push("2A")).toEqual([key("up", { shift: true })]);
    expect(parser.push("\x1b")).toEqual([]);
    expect(parser.flush()).toEqual([key("escape")]);
    expect(parser.hasPending).toBe(false);
  });
});
