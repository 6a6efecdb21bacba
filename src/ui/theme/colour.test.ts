import { describe, expect, it } from "vitest";
import { colourCode, colourModeFor, parseColour, to16, to256 } from "./colour.js";

describe("colours as themes write them", () => {
  it.each([
    ["#ff8000", { kind: "rgb", red: 255, green: 128, blue: 0 }],
    ["#F80", { kind: "rgb", red: 255, green: 136, blue: 0 }],
    [208, { kind: "indexed", index: 208 }],
    ["42", { kind: "indexed", index: 42 }],
    ["cyan", { kind: "basic", index: 6 }],
    ["bright-red", { kind: "basic", index: 9 }],
    ["brightBlue", { kind: "basic", index: 12 }],
    ["grey", { kind: "basic", index: 8 }],
  ])("reads %j", (value, colour) => {
    expect(parseColour(value)).toEqual(colour);
  });

  it.each(["#12", "#gggggg", "256", -1, 3.5, "teal", "", "bright-"])("refuses %j", (value) => {
    expect(parseColour(value)).toBeUndefined();
  });
});

describe("how much colour the terminal gets", () => {
  it("follows NO_COLOR, then COLORTERM, then TERM", () => {
    expect(colourModeFor({ NO_COLOR: "1", COLORTERM: "truecolor" })).toBe("monochrome");
    expect(colourModeFor({ COLORTERM: "truecolor", TERM: "xterm" })).toBe("truecolor");
    expect(colourModeFor({ COLORTERM: "24bit" })).toBe("truecolor");
    expect(colourModeFor({ TERM: "xterm-256color" })).toBe("256");
    expect(colourModeFor({ TERM: "xterm" })).toBe("16");
    expect(colourModeFor({ NO_COLOR: "", TERM: "screen-256color" })).toBe("256");
  });
});

describe("downsampling", () => {
  it("finds the exact entry of the 256-colour cube and the grey ramp", () => {
    expect(to256([0, 95, 135])).toBe(24);
    expect(to256([255, 255, 255])).toBe(231);
    expect(to256([0, 0, 0])).toBe(16);
    expect(to256([128, 128, 128])).toBe(244);
    expect(to256([8, 8, 8])).toBe(232);
  });

  it("takes the nearest entry for colours between them", () => {
    expect(to256([0xbd, 0x93, 0xf9])).toBe(141); // Dracula purple → #af87ff
    expect(to256([0x28, 0x2a, 0x36])).toBe(236); // a dark background → the grey ramp
  });

  it("finds the nearest of the 16 basic colours", () => {
    expect(to16([250, 10, 10])).toBe(1);
    expect(to16([0, 200, 0])).toBe(2);
    expect(to16([0x5f, 0x87, 0xff])).toBe(12);
    expect(to16([0x8b, 0xe9, 0xfd])).toBe(14); // pale: Dracula cyan is bright cyan, not white
    expect(to16([0xc6, 0x78, 0xdd])).toBe(13); // One Dark magenta
    expect(to16([120, 120, 120])).toBe(8);
    expect(to16([0x28, 0x2a, 0x36])).toBe(0); // a dark background colour
    expect(to16([0xee, 0xe8, 0xd5])).toBe(7);
    expect(to16([255, 255, 255])).toBe(15);
  });
});

describe("SGR codes by colour mode", () => {
  const orange = parseColour("#ff8700")!;

  it("writes 24-bit colour only when the terminal shows it", () => {
    expect(colourCode(orange, "foreground", "truecolor")).toBe("38;2;255;135;0");
    expect(colourCode(orange, "background", "truecolor")).toBe("48;2;255;135;0");
    expect(colourCode(orange, "foreground", "256")).toBe("38;5;208");
    expect(colourCode(orange, "foreground", "16")).toBe("33");
  });

  it("keeps basic colours basic in every mode (the terminal's own palette)", () => {
    for (const mode of ["truecolor", "256", "16"] as const) {
      expect(colourCode(parseColour("cyan")!, "foreground", mode)).toBe("36");
      expect(colourCode(parseColour("bright-black")!, "foreground", mode)).toBe("90");
      expect(colourCode(parseColour("green")!, "background", mode)).toBe("42");
    }
  });

  it("passes 256-colour indexes through, approximating them only in 16 colours", () => {
    expect(colourCode(parseColour(141)!, "foreground", "truecolor")).toBe("38;5;141");
    expect(colourCode(parseColour(141)!, "foreground", "256")).toBe("38;5;141");
    expect(colourCode(parseColour(196)!, "foreground", "16")).toBe("31");
    expect(colourCode(parseColour(4)!, "foreground", "256")).toBe("34");
  });
});
