import { describe, expect, it } from "vitest";
import { SafeTextStream, safeEvents, safeLabel, safeText, terminalText } from "./terminal-text.js";

/** Nothing a terminal would act on: no ESC, no C0 control but tab and line feed, no DEL, no C1 control. */
const ACTIVE = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

describe("safeText: outside text with every escape and control removed", () => {
  it.each([
    ["CSI: clear screen, colours, cursor moves", "a\x1b[2Jb\x1b[31;1mc\x1b[0m\x1b[10;5Hd\x1b[?1049he", "abcde"],
    ["CSI with intermediate bytes", "a\x1b[1 qb", "ab"],
    ["OSC ended by BEL: window title", "a\x1b]0;pwned\x07b", "ab"],
    ["OSC ended by ST: clipboard write", "a\x1b]52;c;cHduZWQ=\x1b\\b", "ab"],
    ["OSC 8 hyperlink around its text", "\x1b]8;;https://evil.example\x07click\x1b]8;;\x07", "click"],
    ["OSC unterminated: removed up to the end of the line", "a\x1b]0;pwned\nnext line", "a\nnext line"],
    ["DCS", "a\x1bP1$r0m\x1b\\b", "ab"],
    ["APC", "a\x1b_Gf=100;AAAA\x1b\\b", "ab"],
    ["PM and SOS", "a\x1b^private\x1b\\b\x1bXstart\x1b\\c", "abc"],
    [
      "single-character ESC sequences: reset, save and restore cursor, keypad, index",
      "a\x1bcb\x1b7c\x1b8d\x1b=e\x1bDf",
      "abcdef",
    ],
    ["charset designations and DECALN", "a\x1b(0b\x1b#8c", "abc"],
    ["a lone ESC at the end", "abc\x1b", "abc"],
    ["8-bit CSI (U+009B)", "a\u009b2Jb", "ab"],
    ["8-bit OSC (U+009D) ended by 8-bit ST (U+009C)", "a\u009d0;pwned\u009cb", "ab"],
    ["8-bit DCS, SOS, PM and APC", "a\u0090x\u009cb\u0098x\u009cc\u009ex\u009cd\u009fx\u009ce", "abcde"],
    ["other C1 controls (NEL, IND)", "a\u0085b\u0084c", "abc"],
    ["C0 controls: NUL, BEL, backspace, vertical tab, form feed, DEL", "a\x00b\x07c\bd\x0be\x0cf\x7fg", "abcdefg"],
    ["carriage returns: CRLF is a line break, a lone CR hides nothing", "one\r\ntwo\rthree", "one\ntwothree"],
  ])("%s", (_family, raw, expected) => {
    expect(safeText(raw)).toBe(expected);
  });

  it("keeps line breaks, tabs and every printable character, emoji and accents included", () => {
    const text = "Grüße 🌧️ ½\n\tindented — “quoted” 日本語";
    expect(safeText(text)).toBe(text);
  });

  it("leaves nothing a terminal acts on, whatever the input", () => {
    let everything = "";
    for (let code = 0; code < 0x200; code += 1) everything += `${String.fromCharCode(code)}x`;
    expect(safeText(everything)).not.toMatch(ACTIVE);
    expect(safeText(`${everything}\x1b]0;`)).not.toMatch(ACTIVE);
  });
});

describe("safeLabel: one-line names (titles, paths)", () => {
  it("removes bidi overrides and isolates and puts the label on one line", () => {
    expect(safeLabel("invoice\u202Efdp.exe")).toBe("invoicefdp.exe");
    expect(safeLabel("a\u2066b\u2069c\u200Fd")).toBe("abcd");
    expect(safeLabel("two\nlines\tand tab")).toBe("two lines and tab");
    expect(safeLabel("\x1b]0;pwned\x07title")).toBe("title");
  });
});

describe("terminalText: program output drawn in the chat area", () => {
  it("keeps what a carriage return wrote last on a line and expands tabs", () => {
    expect(terminalText("10%\r50%\r100%\r\ndone\x1b[32m ok\x1b[0m\n\tx")).toBe("100%\ndone ok\n    x");
  });

  it("removes OSC and 8-bit sequences too", () => {
    expect(terminalText("a\x1b]0;pwned\x07b\u009b2Jc")).toBe("abc");
  });
});

describe("SafeTextStream: streamed text", () => {
  it("holds back a sequence split between chunks and removes it once complete", () => {
    const stream = new SafeTextStream();
    const chunks = [
      "Hi \x1b",
      "]0;pw",
      "ned\x07 there \x1b[",
      "2",
      "J and \u009d52;c;",
      "x\u009c bye\x1b]8;;",
      "\x1b\\.",
    ];
    expect(chunks.map((chunk) => stream.push(chunk))).toEqual(["Hi ", "", " there ", "", " and ", " bye", "."]);
  });

  it("drops an unfinished sequence when the stream ends", () => {
    const stream = new SafeTextStream();
    expect(stream.push("a\x1b]0;never ended")).toBe("a");
    stream.end();
    expect(stream.push("b")).toBe("b");
  });
});

describe("safeEvents", () => {
  it("cleans every piece of text of an event and keeps the rest", () => {
    const clean = safeEvents();
    expect(
      clean({
        type: "tool_end",
        turn: 1,
        callId: "c1",
        name: "read_file",
        arguments: '{"path":"\x1b[2Jx"}',
        input: { path: "\x1b[2Jx" },
        result: "\x1b]52;c;cHduZWQ=\x07Quarterly report",
        isError: false,
        elapsedMs: 12,
      }),
    ).toEqual({
      type: "tool_end",
      turn: 1,
      callId: "c1",
      name: "read_file",
      arguments: '{"path":"x"}',
      input: { path: "x" },
      result: "Quarterly report",
      isError: false,
      elapsedMs: 12,
    });
    expect(clean({ type: "tool_calls", turn: 2, names: ["a\x1b]0;t\x07b"] })).toEqual({
      type: "tool_calls",
      turn: 2,
      names: ["ab"],
    });
  });

  it("cleans the answer's deltas as one stream, which ends with the turn", () => {
    const clean = safeEvents();
    const delta = (text: string) => clean({ type: "text_delta", turn: 1, text });
    expect([delta("one \x1b]0;"), delta("pwned\x07two")]).toEqual([
      { type: "text_delta", turn: 1, text: "one " },
      { type: "text_delta", turn: 1, text: "two" },
    ]);
    delta("three \x1b]0;");
    clean({ type: "turn_end", turn: 1, finishReason: "stop" });
    expect(delta("four")).toEqual({ type: "text_delta", turn: 1, text: "four" });
  });
});
