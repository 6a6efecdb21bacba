/** What one typed line asks for (seed 002 §2.4). Pure: no state is touched here. */
export type ParsedInput =
  | { kind: "empty" }
  | { kind: "exit" }
  | { kind: "help" }
  | { kind: "toggle-shell" }
  | { kind: "toggle-coding" }
  /** `!COMMAND`, or any line in shell mode; `command` may be empty (a bare `!`). */
  | { kind: "shell"; command: string }
  | { kind: "pro"; prompt: string }
  | { kind: "model"; args: string[] }
  | { kind: "preferences" }
  | { kind: "profiles" }
  | { kind: "usage" }
  | { kind: "saved" }
  | { kind: "sessions" }
  /** `resume` alone lists the sessions; `resume ID` or `resume N` continues one. */
  | { kind: "resume"; query: string }
  | { kind: "clear" }
  | { kind: "compact" }
  /** `mcp` or `!mcp [trust]`: the MCP servers, or trusting the project's own. */
  | { kind: "mcp"; args: string[] }
  /** `cap [daily] [USD|off]`: show the spending caps, or set the conversation's (or today's) cap. */
  | { kind: "cap"; daily: boolean; amount?: string }
  /** `thinking [LEVEL|default]`: how hard the model thinks. */
  | { kind: "thinking"; level?: string }
  | { kind: "unavailable"; feature: "voice" | "blender" }
  | { kind: "message"; text: string };

export type ParsedKind = ParsedInput["kind"];

const WORD_COMMANDS: Record<string, ParsedInput> = {
  quit: { kind: "exit" },
  exit: { kind: "exit" },
  help: { kind: "help" },
  preferences: { kind: "preferences" },
  profiles: { kind: "profiles" },
  usage: { kind: "usage" },
  saved: { kind: "saved" },
  sessions: { kind: "sessions" },
  resume: { kind: "resume", query: "" },
  clear: { kind: "clear" },
  compact: { kind: "compact" },
  mcp: { kind: "mcp", args: [] },
};

/** `cap`, `cap 1.50`, `cap off`, `cap daily [USD|off]`; with other words after it the line is no command. */
const CAP = /^cap(?:\s+(daily))?(?:\s+(off|\$?[\d.]+))?$/i;

/** `thinking` alone or with one word; with more words after it the line is no command. */
const THINKING = /^thinking(?:\s+(\S+))?$/i;

function parseThinking(text: string): ParsedInput | undefined {
  const match = THINKING.exec(text);
  if (!match) return undefined;
  return { kind: "thinking", ...(match[1] ? { level: match[1] } : {}) };
}

function parseCap(text: string): ParsedInput | undefined {
  const match = CAP.exec(text);
  if (!match) return undefined;
  return { kind: "cap", daily: match[1] !== undefined, ...(match[2] ? { amount: match[2] } : {}) };
}

/** Word commands that still mean Marvin (not the shell) while shell mode is on. */
const SHELL_MODE_WORDS = new Set(["quit", "exit"]);

function parseBang(body: string): ParsedInput {
  const [name = "", ...rest] = body.split(/\s+/);
  const argument = body.slice(name.length).trim();
  switch (name.toLowerCase()) {
    case "shell":
    case "sh":
      return { kind: "toggle-shell" };
    case "code":
      return { kind: "toggle-coding" };
    case "help":
      return { kind: "help" };
    case "pro":
      return { kind: "pro", prompt: argument };
    case "model":
      return { kind: "model", args: rest.filter(Boolean) };
    case "voice":
      return { kind: "unavailable", feature: "voice" };
    case "v":
      if (argument === "" || /^\d+$/.test(argument)) return { kind: "unavailable", feature: "voice" };
      return { kind: "shell", command: body };
    case "blender":
      return { kind: "unavailable", feature: "blender" };
    case "mcp":
      return { kind: "mcp", args: rest.filter(Boolean) };
    case "cap":
      return parseCap(body) ?? { kind: "shell", command: body };
    case "thinking":
      return parseThinking(body) ?? { kind: "shell", command: body };
    default:
      return { kind: "shell", command: body };
  }
}

/**
 * Classifies a typed line. Outside shell mode: `!…` commands, the word commands
 * (`quit`, `exit`, `help`, `preferences`, `profiles`, `usage`, `saved`, `mcp`, case-insensitive,
 * alone on the line; `resume` and `cap` with their arguments), else a message for the model. In shell
 * mode every line is a shell command except `!…` commands (so `!sh` toggles back, `!ls` runs `ls`) and
 * `quit`/`exit`.
 */
export function parseInput(line: string, shellMode: boolean): ParsedInput {
  const text = line.trim();
  if (!text) return { kind: "empty" };
  if (text.startsWith("!")) return parseBang(text.slice(1).trim());
  const word = text.toLowerCase();
  if (shellMode) return SHELL_MODE_WORDS.has(word) ? WORD_COMMANDS[word]! : { kind: "shell", command: text };
  const resume = /^resume\s+([A-Za-z0-9._-]+)$/i.exec(text);
  if (resume) return { kind: "resume", query: resume[1]! };
  return parseCap(text) ?? parseThinking(text) ?? WORD_COMMANDS[word] ?? { kind: "message", text: line.trim() };
}
