import { PROVIDER_NAMES } from "../../providers/registry.js";
import { THINKING_LEVELS } from "../../providers/thinking-level.js";
import { APPROVAL_MODES } from "../../tools/kit/tool-services.js";
import type { PlanAction } from "./coding-commands.js";
import type { CommandResult } from "./command-result.js";

type Answer = Promise<CommandResult>;

/** What the commands of the table do, as the command layer does it (CommandLayer implements it). */
export interface CommandActions {
  readonly helpText: string;
  say(text: string): CommandResult;
  clear(): Answer;
  compact(): Answer;
  switchModel(args: string[]): Answer;
  listSessions(): Answer;
  pickOrList(): Answer;
  resume(query: string): Answer;
  mcp(args: string[]): Answer;
  toggleShell(): CommandResult;
  toggleCoding(): Answer;
  askCopilot(prompt: string): Answer;
  editPreferences(): Answer;
  profiles(): Answer;
  usage(): Answer;
  savedPlaces(): Answer;
  cap(request: { daily: boolean; amount?: string }): Answer;
  recordVoice(seconds: number): Answer;
  toggleVoice(): Answer;
  blenderStatus(): Answer;
  permissions(mode: string): CommandResult;
  rewind(query: string): Answer;
  plan(action: PlanAction): CommandResult;
  init(): CommandResult;
  lsp(): CommandResult;
  thinking(level: string): CommandResult;
  theme(name: string): Answer;
  undo(): Answer;
}

/** What only the running conversation knows of a command's possible arguments. */
interface KnownArguments {
  themeNames(): readonly string[];
}

/**
 * One interactive command. It always answers to `/name` (and `/alias`); `bang` and `word` add the
 * older forms. Adding a command is adding one entry to COMMANDS: parsing, `/help`, the unknown-command
 * suggestions and autocompletion all read the table.
 */
export interface CommandDefinition {
  name: string;
  /** Other names, in every form the command has (`sh` for `shell`, `quit` for `exit`). */
  aliases?: readonly string[];
  /** The arguments as `/help` shows them: `[PROVIDER [MODEL]]`. */
  usage?: string;
  /** One line for `/help` and the completion menu. */
  summary: string;
  /** Also answers to `!name`. */
  bang?: boolean;
  /** Also answers to the bare word, alone on the line (or with arguments `accepts` takes). */
  word?: boolean;
  /**
   * Arguments the `!` and word forms take: with others, `!name …` is a shell command and `name …`
   * a message. Without it the word form takes none and the `!` form any. `/name` takes any.
   */
  accepts?: (args: string) => boolean;
  /** What its first argument can be, for Tab completion. */
  choices?: (known: KnownArguments) => readonly string[];
  /** The line goes to a model (`!pro`): shown as a message, not echoed as a command. */
  sendsMessage?: boolean;
  /** Only the `!` form, never listed: kept for old habits (`!voice`). */
  hidden?: boolean;
  run(layer: CommandActions, args: string): CommandResult | Promise<CommandResult>;
}

/** `plan`, `plan approve`, `plan off`. */
function planAction(args: string): PlanAction {
  const action = args.toLowerCase();
  return action === "approve" || action === "off" ? action : "on";
}

const words = (args: string) => args.split(/\s+/).filter(Boolean);

/** `[daily] [USD|off]` */
const CAP_ARGS = /^(?:(daily)(?:\s+|$))?(off|\$?[\d.]+)?$/i;

function capRequest(args: string): { daily: boolean; amount?: string } | undefined {
  const match = CAP_ARGS.exec(args);
  if (!match) return undefined;
  return { daily: match[1] !== undefined, ...(match[2] ? { amount: match[2] } : {}) };
}

/** What `!v` records without a number. */
const DEFAULT_VOICE_SECONDS = 5;

const COMMANDS: readonly CommandDefinition[] = [
  { name: "help", bang: true, word: true, summary: "this list", run: (layer) => layer.say(layer.helpText) },
  {
    name: "exit",
    aliases: ["quit"],
    word: true,
    summary: "leave Marvin; Ctrl+D and Ctrl+Q too",
    run: () => ({ type: "exit" }),
  },
  {
    name: "clear",
    word: true,
    summary: "start a new conversation (the current one stays saved)",
    run: (layer) => layer.clear(),
  },
  {
    name: "model",
    bang: true,
    usage: "[MODEL|N|PROVIDER [MODEL]]",
    summary: "list the models the endpoint has, or switch model or provider mid-conversation",
    choices: () => PROVIDER_NAMES,
    run: (layer, args) => layer.switchModel(words(args)),
  },
  {
    name: "compact",
    word: true,
    summary: "condense the conversation now, keeping a backup of it",
    run: (layer) => layer.compact(),
  },
  {
    name: "sessions",
    word: true,
    summary: "saved conversations of this profile, newest first",
    run: (layer) => layer.listSessions(),
  },
  {
    name: "resume",
    word: true,
    usage: "[N|ID]",
    summary: "continue a saved conversation (alone: pick one)",
    accepts: (args) => /^[A-Za-z0-9._-]+$/.test(args),
    run: (layer, args) => (args ? layer.resume(words(args)[0]!) : layer.pickOrList()),
  },
  {
    name: "mcp",
    bang: true,
    word: true,
    usage: "[trust]",
    summary: "MCP servers and their tools; trust starts this project's .marvin/mcp.json",
    choices: () => ["trust"],
    run: (layer, args) => layer.mcp(words(args)),
  },
  {
    name: "shell",
    aliases: ["sh"],
    bang: true,
    summary: 'toggle shell mode: every line runs in bash (prompt "$ ")',
    run: (layer) => layer.toggleShell(),
  },
  {
    name: "code",
    bang: true,
    summary: "toggle coding mode (file, git and shell tools; commands need your OK)",
    run: (layer) => layer.toggleCoding(),
  },
  {
    name: "pro",
    bang: true,
    usage: "PROMPT",
    summary: "ask GitHub Copilot once, whatever the current provider",
    sendsMessage: true,
    run: (layer, args) => layer.askCopilot(args),
  },
  {
    name: "preferences",
    word: true,
    summary: "edit this profile's preferences.yaml in $VISUAL, $EDITOR or nano/vi",
    run: (layer) => layer.editPreferences(),
  },
  {
    name: "profiles",
    word: true,
    summary: "list profiles (the active one is marked)",
    run: (layer) => layer.profiles(),
  },
  { name: "usage", word: true, summary: "cost and tokens: this session and lifetime", run: (layer) => layer.usage() },
  {
    name: "cap",
    bang: true,
    word: true,
    usage: "[daily] [USD|off]",
    summary: "spending caps: show them, or set this conversation's (or today's) cap",
    accepts: (args) => capRequest(args) !== undefined,
    run: (layer, args) => layer.cap(capRequest(args) ?? { daily: false, amount: args }),
  },
  {
    name: "plan",
    word: true,
    usage: "[approve|off]",
    summary: "plan mode: read-only tools and a plan first; approve it to go on (Shift+Tab in the TUI)",
    choices: () => ["approve", "off"],
    accepts: (args) => /^(?:approve|off)?$/i.test(args),
    run: (layer, args) => layer.plan(planAction(args)),
  },
  {
    name: "init",
    word: true,
    summary: "the model explores the project and writes an AGENTS.md",
    run: (layer) => layer.init(),
  },
  {
    name: "thinking",
    bang: true,
    word: true,
    usage: "[off|low|medium|high|default]",
    summary: "how hard the model thinks (reasoning effort or budget)",
    choices: () => [...THINKING_LEVELS, "default"],
    accepts: (args) => /^\S*$/.test(args),
    run: (layer, args) => layer.thinking(args),
  },
  {
    name: "theme",
    bang: true,
    word: true,
    usage: "[NAME]",
    summary: "colour theme: list them (a live picker in the full-screen UI), or switch to NAME",
    choices: (known) => known.themeNames(),
    accepts: (args) => /^\S*$/.test(args),
    run: (layer, args) => layer.theme(args),
  },
  { name: "lsp", word: true, summary: "the language servers running", run: (layer) => layer.lsp() },
  {
    name: "rewind",
    word: true,
    usage: "[N]",
    summary: "go back to before one of your messages: files Marvin changed, the conversation, or both",
    accepts: (args) => /^\d*$/.test(args),
    run: (layer, args) => layer.rewind(args),
  },
  {
    name: "undo",
    word: true,
    summary: "put back the files of the last turn that changed files",
    run: (layer) => layer.undo(),
  },
  {
    name: "permissions",
    bang: true,
    word: true,
    usage: "[ask|auto|never]",
    summary: "approvals of this conversation: ask, auto (sandboxed commands run) or never",
    choices: () => APPROVAL_MODES,
    accepts: (args) => /^\S*$/.test(args),
    run: (layer, args) => layer.permissions(args),
  },
  { name: "saved", word: true, summary: "saved places of this profile", run: (layer) => layer.savedPlaces() },
  {
    name: "v",
    bang: true,
    usage: "[SECONDS]",
    summary: "record your voice for SECONDS (5 by default) and send what you said",
    accepts: (args) => /^\d*$/.test(args),
    run: (layer, args) => layer.recordVoice(args ? Number(args) : DEFAULT_VOICE_SECONDS),
  },
  {
    name: "voice",
    bang: true,
    summary: "continuous voice input on or off: speak, pause, Marvin answers (Esc stops)",
    run: (layer) => layer.toggleVoice(),
  },
  {
    name: "blender",
    bang: true,
    summary: "whether Blender's MCP add-on answers",
    run: (layer) => layer.blenderStatus(),
  },
];

/** The commands `/help` and the completion menu show. */
export const LISTED_COMMANDS = COMMANDS.filter((command) => !command.hidden);

/** The command a name (any case) calls in the form given, if any. */
export function findCommand(name: string, form: "slash" | "bang" | "word"): CommandDefinition | undefined {
  const lower = name.toLowerCase();
  return COMMANDS.find(
    (command) =>
      (command.name === lower || command.aliases?.includes(lower)) &&
      (form === "slash" ? !command.hidden : form === "bang" ? command.bang : command.word),
  );
}
