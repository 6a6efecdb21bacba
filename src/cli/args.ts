import { parseArgs } from "node:util";
import { PROVIDER_NAMES } from "../providers/registry.js";
import type { ProviderName } from "../providers/types.js";
import { isValidSessionId } from "../session/saved-sessions/session-id.js";
import { errorMessage } from "../shared/error-message.js";

type OutputFormat = "text" | "jsonl";

export interface CliArgs {
  /** `marvin setup` or `marvin models`: a command instead of a conversation. */
  command?: "setup" | "models";
  nonInteractive: boolean;
  prompt?: string;
  workingDir?: string;
  provider?: ProviderName;
  model?: string;
  plain: boolean;
  curses: boolean;
  ntfy?: string;
  output: OutputFormat;
  /** `--continue`: the latest conversation started in this directory. */
  continueLatest: boolean;
  /** `--resume [ID]`: "" asks which one. */
  resume?: string;
  /** `--session ID`: keep this conversation under ID, continuing it when it exists. */
  session?: string;
  help: boolean;
  version: boolean;
}

export const USAGE = "Usage: marvin [options] [prompt]\nRun 'marvin --help' for all options.";

export const HELP = `Marvin — a local-first terminal assistant.

Usage:
  marvin                              full-screen terminal UI
  marvin --plain                      plain readline UI
  marvin "question"                   ask first, then keep chatting
  marvin setup                        find the keys, servers and sign-ins you have, pick a provider
                                      and model, and save the choice so plain 'marvin' starts with it
  marvin models                       list the models the provider's endpoint has, with context
                                      window and price where known
  marvin --non-interactive --prompt "…" [--working-dir DIR]
                                      one answer on stdout, for scripts and other programs
  marvin login codex                  sign in to ChatGPT, for LLM_PROVIDER=codex (your plan)

Options:
  --non-interactive        run one prompt and exit (prompt from --prompt or stdin); coding mode,
                           commands auto-approved, nothing saved to the chat log
  -p, --prompt TEXT        the prompt
  --working-dir DIR        project directory for file, git and shell tools (default: current dir
                           in non-interactive mode)
  --provider NAME          ${PROVIDER_NAMES.join(" | ")}
                           (default: $LLM_PROVIDER, else Copilot when signed in, else the one
                           provider whose key is set or whose local server answers)
  --model NAME             model to use with the provider
  --plain                  plain readline UI instead of the full-screen one
  --curses                 full-screen UI (the default when stdout is a terminal)
  --ntfy TOPIC             push a notification to this ntfy topic when an answer is ready
                           (server: $MARVIN_NTFY_URL, default https://ntfy.sh)
  -c, --continue           continue the latest conversation started in this directory
  --resume [ID]            continue a saved conversation: pick one from a list, or give its id
  --session ID             keep this conversation as ID and continue it when it exists (lets a
                           program hold a conversation over several --non-interactive runs)
  --output FORMAT          with --non-interactive: text (default) or jsonl (one agent event per line)
  -h, --help               show this help
  -v, --version            show the version

Non-interactive protocol: answer text on stdout, "  🔧 tool, tool" before each tool round,
MARVIN_COST:{json} as the last line of stderr; exit 0 on success, 1 on any error.`;

export class UsageError extends Error {
  override readonly name = "UsageError";
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T | undefined {
  if (value === undefined) return undefined;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`invalid value '${value}' for ${flag} (expected one of: ${allowed.join(", ")})`);
}

function nonEmpty(value: string | undefined, flag: string): string | undefined {
  if (value !== undefined && value.trim() === "") throw new UsageError(`${flag} needs a non-empty value`);
  return value;
}

const OPTIONS = {
  "non-interactive": { type: "boolean", default: false },
  prompt: { type: "string", short: "p" },
  "working-dir": { type: "string" },
  provider: { type: "string" },
  model: { type: "string" },
  plain: { type: "boolean", default: false },
  curses: { type: "boolean", default: false },
  ntfy: { type: "string" },
  output: { type: "string" },
  continue: { type: "boolean", short: "c", default: false },
  resume: { type: "string" },
  session: { type: "string" },
  help: { type: "boolean", short: "h", default: false },
  version: { type: "boolean", short: "v", default: false },
} as const;

function sessionId(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!isValidSessionId(value))
    throw new UsageError(`--session ${value}: use letters, digits, '.', '_' and '-' (up to 100 characters)`);
  return value;
}

/** `--resume` may stand alone: then it is given "" so parseArgs does not take the next option as its value. */
function withResumeValue(argv: string[]): string[] {
  return argv.map((arg, index) => {
    const next = argv[index + 1];
    return arg === "--resume" && (next === undefined || next.startsWith("-")) ? "--resume=" : arg;
  });
}

/** `marvin setup` and `marvin models`: the word alone, in an interactive start; anything more is a prompt. */
function startupCommand(
  positionals: string[],
  prompt: string | undefined,
  nonInteractive: boolean,
): CliArgs["command"] {
  const [word, ...rest] = positionals;
  if (rest.length || prompt !== undefined || nonInteractive) return undefined;
  return word === "setup" || word === "models" ? word : undefined;
}

/** Parses argv (without node and script). Throws UsageError with a one-line message. */
export function parseCliArgs(argv: string[]): CliArgs {
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; allowPositionals: true; strict: true; options: typeof OPTIONS }>
  >;
  try {
    parsed = parseArgs({ args: withResumeValue(argv), allowPositionals: true, strict: true, options: OPTIONS });
  } catch (error) {
    // Node's messages run on over several sentences and lines; the first sentence says what is wrong.
    const message = errorMessage(error)
      .split(/\.(?:\s|$)/)[0]!
      .replace(/^Unknown option/, "unknown option")
      .replace(/^Option/, "option");
    throw new UsageError(message);
  }
  const { values, positionals } = parsed;
  if (values.plain && values.curses) throw new UsageError("--plain and --curses cannot be used together");
  const resuming = [values.continue, values.resume !== undefined, values.session !== undefined].filter(Boolean);
  if (resuming.length > 1) throw new UsageError("use only one of --continue, --resume and --session");
  if (values["non-interactive"] && (values.continue || values.resume !== undefined))
    throw new UsageError("--continue and --resume are interactive; a non-interactive run continues with --session ID");
  if (values.output !== undefined && !values["non-interactive"])
    throw new UsageError("--output is for non-interactive runs: add --non-interactive");
  const command = startupCommand(positionals, values.prompt, values["non-interactive"] ?? false);
  const positional = positionals.length && !command ? positionals.join(" ") : undefined;
  if (values.prompt !== undefined && positional !== undefined)
    throw new UsageError("give the prompt either with --prompt or as an argument, not both");
  return {
    ...(command ? { command } : {}),
    nonInteractive: values["non-interactive"] ?? false,
    prompt: values.prompt ?? positional,
    workingDir: nonEmpty(values["working-dir"], "--working-dir"),
    provider: oneOf(values.provider?.toLowerCase(), PROVIDER_NAMES, "--provider"),
    model: nonEmpty(values.model, "--model"),
    plain: values.plain ?? false,
    curses: values.curses ?? false,
    ntfy: nonEmpty(values.ntfy, "--ntfy"),
    output: oneOf(values.output, ["text", "jsonl"] as const, "--output") ?? "text",
    continueLatest: values.continue ?? false,
    resume: values.resume,
    session: sessionId(values.session),
    help: values.help ?? false,
    version: values.version ?? false,
  };
}
