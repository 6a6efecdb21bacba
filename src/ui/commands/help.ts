/** The `help` / `!help` text; UI-specific keys (scrolling, Ctrl+R…) are added by each UI. */
export const COMMAND_HELP = `Commands:
  !shell, !sh               toggle shell mode: every line runs in bash (prompt "$ ")
  !code                     toggle coding mode (file, git and shell tools; commands need your OK)
  !COMMAND                  run COMMAND in the shell, in the working directory (on the terminal: vim works)
  !pro PROMPT               ask GitHub Copilot once, whatever the current provider
  !model [PROVIDER [MODEL]] show the provider and model, or switch them mid-conversation
  preferences               edit this profile's preferences.yaml in $VISUAL, $EDITOR or nano/vi
  profiles                  list profiles (the active one is marked)
  usage                     cost and tokens: this session and lifetime
  cap [USD|off]             spending caps: show them, or set this conversation's (MARVIN_MAX_COST)
  cap daily [USD|off]       set the daily cap for the rest of this session (MARVIN_MAX_DAILY_COST)
  thinking [LEVEL|default]  how hard the model thinks: off, low, medium, high (MARVIN_THINKING)
  saved                     saved places of this profile
  sessions                  saved conversations of this profile, newest first
  resume [N|ID]             continue a saved conversation (alone: list them)
  clear                     start a new conversation (the current one stays saved)
  compact                   condense the conversation now, keeping a backup of it
  mcp, !mcp                 MCP servers: their state and tools
  !mcp trust                trust this project's .marvin/mcp.json and start its servers
  /NAME [ARGUMENTS]         a custom command of ~/.config/local-finder/commands/ (listed below)
  help, !help               this list
  quit, exit, Ctrl+D        leave Marvin
  Ctrl+C                    stop the answer or command in progress; twice on an empty prompt: leave
Anything else is sent to Marvin.`;
