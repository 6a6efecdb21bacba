import { type ColourMode, colourCode } from "../theme/colour.js";
import type { TokenLook, TokenName } from "../theme/definition.js";
import { DEFAULT_LOOKS, type ThemeLooks } from "../theme/looks.js";

/** A function that wraps text in one ANSI style and closes only that style, so styles nest. */
export type Style = (text: string) => string;

/** Text attributes, the same in every theme. */
interface Attributes {
  bold: Style;
  italic: Style;
  strike: Style;
  underline: Style;
  dim: Style;
  inverse: Style;
}

/**
 * Every style the screen uses: one per token of the active theme (see TOKEN_NAMES: text, muted, accent…,
 * you, assistant, system, tool, syntax and diff colours), plus the attributes.
 */
export type Theme = Readonly<Record<TokenName, Style>> & Readonly<Attributes>;

const plain: Style = (text) => text;

/** A style from SGR layers, outermost first: opened in that order, closed in reverse. */
function layered(layers: ReadonlyArray<readonly [open: string, close: string]>): Style {
  if (layers.length === 0) return plain;
  const open = layers.map(([code]) => `\x1b[${code}m`).join("");
  const close = layers
    .map(([, code]) => `\x1b[${code}m`)
    .reverse()
    .join("");
  return (text) => (text ? open + text + close : text);
}

const ATTRIBUTE_CODES = {
  bold: ["1", "22"],
  dim: ["2", "22"],
  italic: ["3", "23"],
  underline: ["4", "24"],
  strike: ["9", "29"],
  inverse: ["7", "27"],
} as const;

/**
 * A token's style: attributes outside, the colours inside. Without colour (`NO_COLOR`) only the attributes
 * are kept, and a background becomes inverse video so marked words stay marked.
 */
function tokenStyle(look: TokenLook, mode: ColourMode): Style {
  if (mode === "plain") return plain;
  const layers: Array<readonly [string, string]> = [];
  for (const name of ["bold", "dim", "italic", "underline"] as const)
    if (look[name]) layers.push(ATTRIBUTE_CODES[name]);
  if (look.background)
    layers.push(
      mode === "monochrome" ? ATTRIBUTE_CODES.inverse : [colourCode(look.background, "background", mode), "49"],
    );
  if (look.color && mode !== "monochrome") layers.push([colourCode(look.color, "foreground", mode), "39"]);
  return layered(layers);
}

/** The styles of a theme's looks in a colour mode. */
export function themeStyles(looks: ThemeLooks, mode: ColourMode): Theme {
  const attribute = (name: keyof typeof ATTRIBUTE_CODES) =>
    mode === "plain" ? plain : layered([ATTRIBUTE_CODES[name]]);
  const tokens = Object.fromEntries(
    Object.entries(looks).map(([name, look]) => [name, tokenStyle(look, mode)]),
  ) as Record<TokenName, Style>;
  return {
    ...tokens,
    bold: attribute("bold"),
    italic: attribute("italic"),
    strike: attribute("strike"),
    underline: attribute("underline"),
    dim: attribute("dim"),
    inverse: attribute("inverse"),
  };
}

/** The default theme in colour. */
export const COLOR_THEME: Theme = themeStyles(DEFAULT_LOOKS, "16");

/** The default theme under `NO_COLOR`: no colour at all, but bold, underline and inverse video still structure the screen. */
export const MONOCHROME_THEME: Theme = themeStyles(DEFAULT_LOOKS, "monochrome");
