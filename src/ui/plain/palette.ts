export interface Palette {
  you: (text: string) => string;
  assistant: (text: string) => string;
  system: (text: string) => string;
  tool: (text: string) => string;
  /** The model's reasoning, shown before its answer; also a command's output gutter. */
  reasoning: (text: string) => string;
  /** Added and removed lines of a diff, and the changed words inside them. */
  diffAdded: (text: string) => string;
  diffRemoved: (text: string) => string;
  diffAddedWord: (text: string) => string;
  diffRemovedWord: (text: string) => string;
}

const ansi = (code: number) => (text: string) => `\x1b[${code}m${text}\x1b[0m`;
const same = (text: string) => text;
/** you=cyan, assistant=green, system=yellow, tools=magenta (seed 000 §2.9); reasoning dim. */
export const COLOR_PALETTE: Palette = {
  you: ansi(36),
  assistant: ansi(32),
  system: ansi(33),
  tool: ansi(35),
  reasoning: ansi(2),
  diffAdded: ansi(32),
  diffRemoved: ansi(31),
  diffAddedWord: (text) => `\x1b[7;32m${text}\x1b[0m`,
  diffRemovedWord: (text) => `\x1b[7;31m${text}\x1b[0m`,
};
export const PLAIN_PALETTE: Palette = {
  you: same,
  assistant: same,
  system: same,
  tool: same,
  reasoning: same,
  diffAdded: same,
  diffRemoved: same,
  diffAddedWord: same,
  diffRemovedWord: same,
};
