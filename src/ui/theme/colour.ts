import type { Env } from "../../shared/env.js";

/**
 * A colour as a theme names it: one of the terminal's 16 basic colours (which the terminal's own
 * palette decides), an index of the xterm 256-colour table, or an exact red/green/blue.
 */
export type Colour =
  | { kind: "basic"; index: number }
  | { kind: "indexed"; index: number }
  | { kind: "rgb"; red: number; green: number; blue: number };

/**
 * How much colour the screen gets: 24-bit, the 256-colour table, the 16 basic colours, none at all
 * but bold, underline… (`NO_COLOR`), or plain text without any escape sequence (output that is not a terminal).
 */
export type ColourMode = "truecolor" | "256" | "16" | "monochrome" | "plain";

const BASIC_NAMES = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"] as const;

/** `red`, `bright-red`, `brightRed`, `bright_red`; `gray`/`grey` are bright black. */
function basicIndex(name: string): number | undefined {
  const lower = name.toLowerCase().replace(/[-_ ]/g, "");
  if (lower === "gray" || lower === "grey") return 8;
  const bright = lower.startsWith("bright");
  const index = BASIC_NAMES.indexOf(lower.slice(bright ? 6 : 0) as (typeof BASIC_NAMES)[number]);
  return index < 0 ? undefined : index + (bright ? 8 : 0);
}

/** The names a theme may use for the 16 basic colours, for messages. */
export const BASIC_COLOUR_NAMES = [...BASIC_NAMES, ...BASIC_NAMES.map((name) => `bright-${name}`)];

/** `#rrggbb` (or `#rgb`), a 256-colour index (0-255, as a number or a string of digits), or a basic name. */
export function parseColour(value: string | number): Colour | undefined {
  if (typeof value === "number" || /^\d{1,3}$/.test(value)) {
    const index = Number(value);
    return Number.isInteger(index) && index >= 0 && index <= 255 ? { kind: "indexed", index } : undefined;
  }
  const hex = /^#([0-9a-f]{6}|[0-9a-f]{3})$/i.exec(value.trim())?.[1];
  if (hex) {
    const full = hex.length === 3 ? [...hex].map((digit) => digit + digit).join("") : hex;
    const [red, green, blue] = [0, 2, 4].map((start) => Number.parseInt(full.slice(start, start + 2), 16));
    return { kind: "rgb", red: red!, green: green!, blue: blue! };
  }
  const index = basicIndex(value);
  return index === undefined ? undefined : { kind: "basic", index };
}

/** Colours unless `NO_COLOR` is set; as many as `COLORTERM` and `TERM` say the terminal shows. */
export function colourModeFor(env: Env): ColourMode {
  if (env.NO_COLOR) return "monochrome";
  if (/^(truecolor|24bit)$/i.test(env.COLORTERM ?? "")) return "truecolor";
  return /256/.test(env.TERM ?? "") ? "256" : "16";
}

type Rgb = readonly [number, number, number];

/** The basic colours as xterm draws them by default: what a 16-colour approximation aims at. */
const BASIC_RGB: readonly Rgb[] = [
  [0, 0, 0],
  [205, 0, 0],
  [0, 205, 0],
  [205, 205, 0],
  [0, 0, 238],
  [205, 0, 205],
  [0, 205, 205],
  [229, 229, 229],
  [127, 127, 127],
  [255, 0, 0],
  [0, 255, 0],
  [255, 255, 0],
  [92, 92, 255],
  [255, 0, 255],
  [0, 255, 255],
  [255, 255, 255],
];

/** The six levels of each channel in the 6×6×6 cube of the 256-colour table (indexes 16-231). */
const CUBE_LEVELS = [0, 95, 135, 175, 215, 255];

function indexedRgb(index: number): Rgb {
  if (index < 16) return BASIC_RGB[index]!;
  if (index >= 232) {
    const grey = 8 + (index - 232) * 10;
    return [grey, grey, grey];
  }
  const cube = index - 16;
  return [CUBE_LEVELS[Math.floor(cube / 36)]!, CUBE_LEVELS[Math.floor(cube / 6) % 6]!, CUBE_LEVELS[cube % 6]!];
}

/** Squared distance, weighted for the eye (green counts most, blue least). */
function distance(a: Rgb, b: Rgb): number {
  return 2 * (a[0] - b[0]) ** 2 + 4 * (a[1] - b[1]) ** 2 + 3 * (a[2] - b[2]) ** 2;
}

function nearest(target: Rgb, candidates: readonly number[]): number {
  let best = candidates[0]!;
  for (const candidate of candidates)
    if (distance(target, indexedRgb(candidate)) < distance(target, indexedRgb(best))) best = candidate;
  return best;
}

const nearestLevel = (channel: number) =>
  CUBE_LEVELS.reduce(
    (best, level, index) => (Math.abs(level - channel) < Math.abs(CUBE_LEVELS[best]! - channel) ? index : best),
    0,
  );

/** The closest entry of the 256-colour table: the nearest cube colour or the nearest grey. */
export function to256(rgb: Rgb): number {
  const [red, green, blue] = rgb.map(nearestLevel) as [number, number, number];
  const cube = 16 + 36 * red + 6 * green + blue;
  const average = (rgb[0] + rgb[1] + rgb[2]) / 3;
  const grey = 232 + Math.min(23, Math.max(0, Math.round((average - 8) / 10)));
  return nearest(rgb, [cube, grey]);
}

/** The basic colours around the colour wheel, from red at 0° in steps of 60°. */
const HUE_SECTORS = [1, 3, 2, 6, 4, 5];

/**
 * The closest of the 16 basic colours, by hue first: the basic colours are far apart, and by distance alone
 * pale colours (a pastel cyan) would all come out white. Colours with little hue become black, greys or white.
 */
export function to16([red, green, blue]: Rgb): number {
  const max = Math.max(red, green, blue);
  const min = Math.min(red, green, blue);
  const chroma = max - min;
  const lightness = (max + min) / 2;
  if (chroma < 32 || chroma < max / 5) return lightness < 64 ? 0 : lightness < 150 ? 8 : lightness < 230 ? 7 : 15;
  const hue =
    max === red
      ? ((green - blue) / chroma + 6) % 6
      : max === green
        ? (blue - red) / chroma + 2
        : (red - green) / chroma + 4;
  const basic = HUE_SECTORS[Math.round(hue) % 6]!;
  return lightness > 140 ? basic + 8 : basic;
}

/** SGR parameters for a basic colour index: 30-37 / 90-97 (foreground), 40-47 / 100-107 (background). */
function basicCode(index: number, layer: "foreground" | "background"): string {
  const base = layer === "foreground" ? 30 : 40;
  return String(index < 8 ? base + index : base + 60 + index - 8);
}

/**
 * The SGR parameters that select `colour` for `layer` in a colour mode: exact when the terminal
 * shows it, else the nearest it does. Basic colours stay basic in every mode (the terminal's palette).
 */
export function colourCode(
  colour: Colour,
  layer: "foreground" | "background",
  mode: "truecolor" | "256" | "16",
): string {
  const select = layer === "foreground" ? "38" : "48";
  switch (colour.kind) {
    case "basic":
      return basicCode(colour.index, layer);
    case "indexed":
      if (colour.index < 16) return basicCode(colour.index, layer);
      return mode === "16" ? basicCode(to16(indexedRgb(colour.index)), layer) : `${select};5;${colour.index}`;
    case "rgb": {
      const rgb: Rgb = [colour.red, colour.green, colour.blue];
      if (mode === "truecolor") return `${select};2;${rgb.join(";")}`;
      return mode === "256" ? `${select};5;${to256(rgb)}` : basicCode(to16(rgb), layer);
    }
  }
}
