import { nearestNames } from "../../shared/edit-distance.js";
import { type CommandDefinition, findCommand, LISTED_COMMANDS } from "./command-table.js";
import type { CustomCommand } from "./custom-commands.js";

/** What one typed line asks for (seed 002 §2.4, seed 003). Pure: no state is touched here. */
export type ParsedInput =
  | { kind: "empty" }
  /** A command of the table, in any of its forms; `args` is the rest of the line, trimmed. */
  | { kind: "command"; command: CommandDefinition; args: string }
  /** `/name ARGS` for one of the user's prompt templates. */
  | { kind: "custom"; command: CustomCommand; args: string }
  /** `/name` that names no command (never sent to the model); the nearest names to suggest. */
  | { kind: "unknown"; name: string; suggestions: string[] }
  /** `!COMMAND`, or any line in shell mode; `command` may be empty (a bare `!`). */
  | { kind: "shell"; command: string }
  | { kind: "message"; text: string };

/** `name` and the rest of `body`, trimmed. */
function split(body: string): { name: string; args: string } {
  const name = body.split(/\s/, 1)[0] ?? "";
  return { name, args: body.slice(name.length).trim() };
}

/** Every name a `/` line can call: the listed commands, their aliases, and the custom commands. */
function slashNames(custom: readonly CustomCommand[]): string[] {
  return [
    ...LISTED_COMMANDS.flatMap((command) => [command.name, ...(command.aliases ?? [])]),
    ...custom.map((command) => command.name),
  ];
}

function parseSlash(body: string, custom: readonly CustomCommand[]): ParsedInput {
  const { name, args } = split(body);
  const command = findCommand(name, "slash");
  if (command) return { kind: "command", command, args };
  const template = custom.find((candidate) => candidate.name === name.toLowerCase());
  if (template) return { kind: "custom", command: template, args };
  return { kind: "unknown", name, suggestions: name ? nearestNames(name, slashNames(custom), 3) : [] };
}

function parseBang(body: string): ParsedInput {
  const { name, args } = split(body);
  const command = findCommand(name, "bang");
  if (command && (command.accepts?.(args) ?? true)) return { kind: "command", command, args };
  return { kind: "shell", command: body };
}

function parseWord(text: string, shellMode: boolean): ParsedInput | undefined {
  const { name, args } = split(text);
  const command = findCommand(name, "word");
  if (!command || (shellMode && command.name !== "exit")) return undefined;
  return args === "" || command.accepts?.(args) ? { kind: "command", command, args } : undefined;
}

/**
 * Classifies a typed line. Outside shell mode: `/name` is always a command (a built-in, else a custom
 * one, else unknown: never a message); `!name` is a command that has a `!` form, else a shell command;
 * a command's bare word (`help`, `usage`…, case-insensitive) alone on the line, or with the arguments
 * it takes; anything else is a message for the model. In shell mode every line is a shell command
 * except `!…` commands and `quit`/`exit` (so `/usr/bin/env` runs).
 */
export function parseInput(line: string, shellMode: boolean, custom: readonly CustomCommand[] = []): ParsedInput {
  const text = line.trim();
  if (!text) return { kind: "empty" };
  if (text.startsWith("!")) return parseBang(text.slice(1).trim());
  const word = parseWord(text, shellMode);
  if (word) return word;
  if (shellMode) return { kind: "shell", command: text };
  if (text.startsWith("/")) return parseSlash(text.slice(1), custom);
  return { kind: "message", text };
}
