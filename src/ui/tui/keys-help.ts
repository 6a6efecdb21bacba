import { helpRow } from "../commands/help.js";

/** Keys of the full-screen UI, added to the shared `help` text. */
export const TUI_KEYS_HELP = [
  "Keys:",
  helpRow("PgUp/PgDn, Shift+↑/↓, wheel", "scroll the conversation (Ctrl+Home/End: top/bottom)"),
  helpRow("↑/↓, Ctrl+R", "previous inputs, search them"),
  helpRow("Tab", "complete a /command or its argument, @file, @tool, path, ~/ (↑/↓, Enter takes)"),
  helpRow("Ctrl+O, Ctrl+T", "expand or collapse the latest tool call or thinking, or all of them"),
  helpRow("Esc", "stop the answer in progress (or close the completion menu)"),
  helpRow("Ctrl+Q", "leave Marvin"),
  helpRow("←/→, Home/End, Ctrl+A/E", "move on the line; Alt+Enter adds a line break"),
  helpRow("Ctrl+U/K/W", "delete to the line's start, to its end, the word before"),
  helpRow("Shift+drag", "select text (the wheel scrolls the conversation)"),
].join("\n");
