/** Keys of the full-screen UI, added to the shared `help` text. */
export const TUI_KEYS_HELP = `Keys:
  PgUp/PgDn, Shift+↑/↓, wheel   scroll the conversation (Ctrl+Home/End: top/bottom)
  ↑/↓, Ctrl+R                   previous inputs, search them
  Tab                           complete a /command or its argument, @file, @tool, path, ~/ (↑/↓, Enter takes)
  Ctrl+O, Ctrl+T                expand or collapse the latest tool call or thinking, or all of them
  Esc                           stop the answer in progress (or close the completion menu)
  Ctrl+Q                        leave Marvin
  ←/→, Home/End, Ctrl+A/E/U/K/W edit the line; Alt+Enter adds a line break
  Shift+drag                    select text (the wheel scrolls the conversation)`;
