import { BUILTIN_THEMES, DEFAULT_THEME } from "./builtin-themes.js";
import { type TokenLook, type TokenName, tokenLooks } from "./definition.js";
import type { CheckedTheme } from "./theme-file.js";

/** Every token's look: what a theme is once its gaps are filled. */
export type ThemeLooks = Readonly<Record<TokenName, TokenLook>>;

/** The default theme's looks: what every other theme starts from. */
export const DEFAULT_LOOKS = tokenLooks(BUILTIN_THEMES.get(DEFAULT_THEME)!.tokens) as ThemeLooks;

/** A built-in theme's looks, by name. */
export function builtinLooks(name: string): ThemeLooks | undefined {
  const definition = BUILTIN_THEMES.get(name);
  return definition && { ...DEFAULT_LOOKS, ...tokenLooks(definition.tokens) };
}

/**
 * A user theme's looks: its tokens over those of the built-in theme it extends (the default without `extend`).
 * Extending a theme that is not built in is a problem; it then extends the default.
 */
export function userLooks(theme: CheckedTheme): { looks: ThemeLooks; problems: string[] } {
  if (theme.extend === undefined) return { looks: { ...DEFAULT_LOOKS, ...theme.looks }, problems: [] };
  const base = builtinLooks(theme.extend);
  if (base) return { looks: { ...base, ...theme.looks }, problems: [] };
  const names = [...BUILTIN_THEMES.keys()].join(", ");
  return {
    looks: { ...DEFAULT_LOOKS, ...theme.looks },
    problems: [`extend: "${theme.extend}" is not a built-in theme (${names}); extending ${DEFAULT_THEME}`],
  };
}
