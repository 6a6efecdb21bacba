import type { ThemeDefinition } from "./definition.js";

/**
 * The default: the terminal's own basic colours (so it follows the terminal's palette), as Marvin always
 * looked. Seed 000 §2.9: you=cyan, assistant=green, system=yellow, tools=magenta.
 */
const DARK: ThemeDefinition = {
  description: "the terminal's own colours (default)",
  tokens: {
    text: {},
    muted: { dim: true },
    accent: { bold: true },
    success: "green",
    warning: "yellow",
    error: { color: "yellow", bold: true },
    you: "cyan",
    assistant: "green",
    system: "yellow",
    tool: "magenta",
    heading: { color: "green", bold: true },
    code: "bright-cyan",
    link: { color: "blue", underline: true },
    keyword: "bright-magenta",
    string: "bright-yellow",
    comment: { color: "bright-black", dim: true },
    number: "bright-blue",
    diffAdded: "green",
    diffRemoved: "red",
    diffAddedWord: { color: "black", background: "green" },
    diffRemovedWord: { color: "black", background: "red" },
  },
};

/** Dark colours for a light background (all on the 256-colour cube, so they look the same in 256 colours). */
const LIGHT: ThemeDefinition = {
  description: "dark ink for light terminal backgrounds",
  tokens: {
    text: {},
    muted: "#6c6c6c",
    accent: { color: "#0000af", bold: true },
    success: "#005f00",
    warning: "#875f00",
    error: { color: "#af0000", bold: true },
    you: "#005f87",
    assistant: "#005f00",
    system: "#875f00",
    tool: "#870087",
    heading: { color: "#005f00", bold: true },
    code: "#af005f",
    link: { color: "#0000d7", underline: true },
    keyword: "#8700af",
    string: "#875f00",
    comment: { color: "#808080", italic: true },
    number: "#005faf",
    diffAdded: "#005f00",
    diffRemoved: "#af0000",
    diffAddedWord: { color: "#005f00", background: "#d7ffd7" },
    diffRemovedWord: { color: "#af0000", background: "#ffd7d7" },
  },
};

/** The brightest basic colours, bold where it matters, nothing dimmed. */
const HIGH_CONTRAST: ThemeDefinition = {
  description: "bright colours and bold, nothing dim",
  tokens: {
    text: "bright-white",
    muted: "white",
    accent: { color: "bright-white", bold: true },
    success: "bright-green",
    warning: { color: "bright-yellow", bold: true },
    error: { color: "bright-red", bold: true },
    you: "bright-cyan",
    assistant: "bright-green",
    system: "bright-yellow",
    tool: "bright-magenta",
    heading: { color: "bright-white", bold: true, underline: true },
    code: "bright-cyan",
    link: { color: "bright-blue", underline: true },
    keyword: { color: "bright-magenta", bold: true },
    string: "bright-yellow",
    comment: { color: "white", italic: true },
    number: "bright-blue",
    diffAdded: "bright-green",
    diffRemoved: "bright-red",
    diffAddedWord: { color: "black", background: "bright-green", bold: true },
    diffRemovedWord: { color: "black", background: "bright-red", bold: true },
  },
};

/** The published colours of an editor palette that a theme is made from. */
interface Palette {
  description: string;
  background: string;
  text: string;
  muted: string;
  red: string;
  green: string;
  yellow: string;
  blue: string;
  magenta: string;
  cyan: string;
  orange: string;
}

/** A theme from a palette, roles as in the default: you in cyan, the answer in green, system yellow, tools magenta. */
function fromPalette(palette: Palette): ThemeDefinition {
  const { background, text, muted, red, green, yellow, blue, magenta, cyan, orange } = palette;
  return {
    description: palette.description,
    tokens: {
      text,
      muted,
      accent: { color: blue, bold: true },
      success: green,
      warning: yellow,
      error: { color: red, bold: true },
      you: cyan,
      assistant: green,
      system: yellow,
      tool: magenta,
      heading: { color: blue, bold: true },
      code: orange,
      link: { color: blue, underline: true },
      keyword: magenta,
      string: yellow,
      comment: { color: muted, italic: true },
      number: orange,
      diffAdded: green,
      diffRemoved: red,
      diffAddedWord: { color: background, background: green },
      diffRemovedWord: { color: background, background: red },
    },
  };
}

const SOLARIZED_ACCENTS = {
  red: "#dc322f",
  green: "#859900",
  yellow: "#b58900",
  blue: "#268bd2",
  magenta: "#d33682",
  cyan: "#2aa198",
  orange: "#cb4b16",
};

const PALETTES: Record<string, Palette> = {
  dracula: {
    description: "Dracula",
    background: "#282a36",
    text: "#f8f8f2",
    muted: "#6272a4",
    red: "#ff5555",
    green: "#50fa7b",
    yellow: "#f1fa8c",
    blue: "#bd93f9",
    magenta: "#ff79c6",
    cyan: "#8be9fd",
    orange: "#ffb86c",
  },
  "solarized-dark": {
    description: "Solarized, dark background",
    background: "#002b36",
    text: "#839496",
    muted: "#586e75",
    ...SOLARIZED_ACCENTS,
  },
  "solarized-light": {
    description: "Solarized, light background",
    background: "#fdf6e3",
    text: "#657b83",
    muted: "#93a1a1",
    ...SOLARIZED_ACCENTS,
  },
  gruvbox: {
    description: "Gruvbox, dark",
    background: "#282828",
    text: "#ebdbb2",
    muted: "#928374",
    red: "#fb4934",
    green: "#b8bb26",
    yellow: "#fabd2f",
    blue: "#83a598",
    magenta: "#d3869b",
    cyan: "#8ec07c",
    orange: "#fe8019",
  },
  nord: {
    description: "Nord",
    background: "#2e3440",
    text: "#d8dee9",
    muted: "#616e88",
    red: "#bf616a",
    green: "#a3be8c",
    yellow: "#ebcb8b",
    blue: "#81a1c1",
    magenta: "#b48ead",
    cyan: "#88c0d0",
    orange: "#d08770",
  },
  "tokyo-night": {
    description: "Tokyo Night",
    background: "#1a1b26",
    text: "#c0caf5",
    muted: "#565f89",
    red: "#f7768e",
    green: "#9ece6a",
    yellow: "#e0af68",
    blue: "#7aa2f7",
    magenta: "#bb9af7",
    cyan: "#7dcfff",
    orange: "#ff9e64",
  },
  catppuccin: {
    description: "Catppuccin Mocha",
    background: "#1e1e2e",
    text: "#cdd6f4",
    muted: "#7f849c",
    red: "#f38ba8",
    green: "#a6e3a1",
    yellow: "#f9e2af",
    blue: "#89b4fa",
    magenta: "#cba6f7",
    cyan: "#89dceb",
    orange: "#fab387",
  },
  "catppuccin-latte": {
    description: "Catppuccin Latte, light background",
    background: "#eff1f5",
    text: "#4c4f69",
    muted: "#8c8fa1",
    red: "#d20f39",
    green: "#40a02b",
    yellow: "#df8e1d",
    blue: "#1e66f5",
    magenta: "#8839ef",
    cyan: "#04a5e5",
    orange: "#fe640b",
  },
  "one-dark": {
    description: "One Dark",
    background: "#282c34",
    text: "#abb2bf",
    muted: "#5c6370",
    red: "#e06c75",
    green: "#98c379",
    yellow: "#e5c07b",
    blue: "#61afef",
    magenta: "#c678dd",
    cyan: "#56b6c2",
    orange: "#d19a66",
  },
  monokai: {
    description: "Monokai",
    background: "#272822",
    text: "#f8f8f2",
    muted: "#75715e",
    red: "#f92672",
    green: "#a6e22e",
    yellow: "#e6db74",
    blue: "#66d9ef",
    magenta: "#ae81ff",
    cyan: "#66d9ef",
    orange: "#fd971f",
  },
};

/** The theme used when none is chosen. */
export const DEFAULT_THEME = "dark";

/** The themes Marvin ships, by name; the default first. */
export const BUILTIN_THEMES: ReadonlyMap<string, ThemeDefinition> = new Map([
  [DEFAULT_THEME, DARK],
  ["light", LIGHT],
  ["high-contrast", HIGH_CONTRAST],
  ...Object.entries(PALETTES).map(([name, palette]) => [name, fromPalette(palette)] as const),
]);
