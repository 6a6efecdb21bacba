import { type Colour, parseColour } from "./colour.js";

/** What the screen colours, by meaning: a theme gives each a look. */
export const TOKEN_NAMES = [
  "text",
  "muted",
  "accent",
  "success",
  "warning",
  "error",
  "you",
  "assistant",
  "system",
  "tool",
  "heading",
  "code",
  "link",
  "keyword",
  "string",
  "comment",
  "number",
  "diffAdded",
  "diffRemoved",
  "diffAddedWord",
  "diffRemovedWord",
] as const;

export type TokenName = (typeof TOKEN_NAMES)[number];

type ColourValue = string | number;

/** A token as a theme file writes it: a colour alone, or colours and attributes. */
export type TokenSpec =
  | ColourValue
  | {
      color?: ColourValue;
      background?: ColourValue;
      bold?: boolean;
      italic?: boolean;
      dim?: boolean;
      underline?: boolean;
    };

/** A theme as data (JSON): tokens left out come from the theme it extends, else from the default theme. */
export interface ThemeDefinition {
  /** A built-in theme this one starts from. */
  extend?: string;
  description?: string;
  tokens: Partial<Record<TokenName, TokenSpec>>;
}

/** A token's look, its colours parsed. */
export interface TokenLook {
  color?: Colour;
  background?: Colour;
  bold?: boolean;
  italic?: boolean;
  dim?: boolean;
  underline?: boolean;
}

/** The looks of a theme's tokens, for a theme known to be valid (a built-in one): no checks. */
export function tokenLooks(tokens: ThemeDefinition["tokens"]): Partial<Record<TokenName, TokenLook>> {
  return Object.fromEntries(Object.entries(tokens).map(([name, spec]) => [name, look(spec)]));
}

export function look(spec: TokenSpec): TokenLook {
  const { color, background, ...attributes } = typeof spec === "object" ? spec : { color: spec };
  return {
    ...attributes,
    ...(color === undefined ? {} : { color: parseColour(color) }),
    ...(background === undefined ? {} : { background: parseColour(background) }),
  };
}
