import { z } from "zod";
import { BASIC_COLOUR_NAMES, type Colour, parseColour } from "./colour.js";

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
type TokenSpec =
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

const COLOUR = z
  .unknown()
  .refine((value) => (typeof value === "string" || typeof value === "number") && parseColour(value) !== undefined, {
    error: (issue) =>
      `${JSON.stringify(issue.input)} is not a colour: use "#rrggbb", a 256-colour index (0-255) or one of ` +
      `${BASIC_COLOUR_NAMES.join(", ")}`,
  });

const STYLE = z.strictObject({
  color: COLOUR.optional(),
  background: COLOUR.optional(),
  bold: z.boolean().optional(),
  italic: z.boolean().optional(),
  dim: z.boolean().optional(),
  underline: z.boolean().optional(),
});

const FILE = z.strictObject({
  extend: z.string().optional(),
  description: z.string().optional(),
  tokens: z.record(z.string(), z.unknown()).optional(),
});

const describe = (issue: z.core.$ZodIssue, prefix: readonly PropertyKey[]) =>
  `${[...prefix, ...issue.path].map(String).join(".") || "the file"}: ${issue.message}`;

function look(spec: TokenSpec): TokenLook {
  const { color, background, ...attributes } = typeof spec === "object" ? spec : { color: spec };
  return {
    ...attributes,
    ...(color === undefined ? {} : { color: parseColour(color) }),
    ...(background === undefined ? {} : { background: parseColour(background) }),
  };
}

/** What a theme file holds, checked: tokens that are wrong are left out, each with a problem naming its field. */
export interface CheckedTheme {
  extend?: string;
  looks: Partial<Record<TokenName, TokenLook>>;
  problems: string[];
}

/** Checks a theme (parsed JSON) field by field, so one bad token costs only that token. */
export function checkTheme(raw: unknown): CheckedTheme {
  const file = FILE.safeParse(raw);
  if (!file.success) return { looks: {}, problems: file.error.issues.map((issue) => describe(issue, [])) };
  const problems: string[] = [];
  const looks: Partial<Record<TokenName, TokenLook>> = {};
  for (const [name, value] of Object.entries(file.data.tokens ?? {})) {
    if (!(TOKEN_NAMES as readonly string[]).includes(name)) {
      problems.push(`tokens.${name}: not a token; the tokens are ${TOKEN_NAMES.join(", ")}`);
      continue;
    }
    const checked = (value !== null && typeof value === "object" ? STYLE : COLOUR).safeParse(value);
    if (checked.success) looks[name as TokenName] = look(value as TokenSpec);
    else problems.push(...checked.error.issues.map((issue) => describe(issue, ["tokens", name])));
  }
  return { ...(file.data.extend === undefined ? {} : { extend: file.data.extend }), looks, problems };
}
