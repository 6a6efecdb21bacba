/** A function that wraps text in one ANSI style and closes only that style, so styles nest. */
export type Style = (text: string) => string;

/** Every style the TUI uses. Colours follow seed 000 §2.9: you=cyan, assistant=green, system=yellow, tools=magenta. */
export interface Theme {
  you: Style;
  assistant: Style;
  system: Style;
  tool: Style;
  error: Style;
  heading: Style;
  bold: Style;
  italic: Style;
  strike: Style;
  underline: Style;
  dim: Style;
  inverse: Style;
  code: Style;
  link: Style;
  keyword: Style;
  string: Style;
  comment: Style;
  number: Style;
  /** Added and removed lines of a diff, and the changed words inside them. */
  diffAdded: Style;
  diffRemoved: Style;
  diffAddedWord: Style;
  diffRemovedWord: Style;
}

const sgr =
  (open: number, close: number): Style =>
  (text) =>
    text ? `\x1b[${open}m${text}\x1b[${close}m` : text;

const FOREGROUND_RESET = 39;
const color = (code: number) => sgr(code, FOREGROUND_RESET);
const plain: Style = (text) => text;

const attributes = {
  bold: sgr(1, 22),
  italic: sgr(3, 23),
  strike: sgr(9, 29),
  underline: sgr(4, 24),
  dim: sgr(2, 22),
  inverse: sgr(7, 27),
};

export const COLOR_THEME: Theme = {
  ...attributes,
  you: color(36),
  assistant: color(32),
  system: color(33),
  tool: color(35),
  error: color(31),
  heading: (text) => attributes.bold(color(32)(text)),
  code: color(96),
  link: (text) => attributes.underline(color(34)(text)),
  keyword: color(95),
  string: color(93),
  comment: (text) => attributes.dim(color(90)(text)),
  number: color(94),
  diffAdded: color(32),
  diffRemoved: color(31),
  diffAddedWord: (text) => attributes.inverse(color(32)(text)),
  diffRemovedWord: (text) => attributes.inverse(color(31)(text)),
};

/** `NO_COLOR`: no colour at all, but bold, underline and inverse video still structure the screen. */
export const MONOCHROME_THEME: Theme = {
  ...attributes,
  you: plain,
  assistant: plain,
  system: plain,
  tool: plain,
  error: plain,
  heading: attributes.bold,
  code: plain,
  link: attributes.underline,
  keyword: plain,
  string: plain,
  comment: plain,
  number: plain,
  diffAdded: plain,
  diffRemoved: plain,
  diffAddedWord: attributes.underline,
  diffRemovedWord: attributes.underline,
};

/** The theme for this environment: colours unless `NO_COLOR` is set to anything non-empty. */
export function themeFor(env: Readonly<Record<string, string | undefined>>): Theme {
  return env.NO_COLOR ? MONOCHROME_THEME : COLOR_THEME;
}
