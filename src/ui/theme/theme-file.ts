import { z } from "zod";
import { BASIC_COLOUR_NAMES, parseColour } from "./colour.js";
import { look, TOKEN_NAMES, type TokenLook, type TokenName, type TokenSpec } from "./definition.js";

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
