import { readdir, readFile } from "node:fs/promises";
import { basename, extname, join } from "node:path";
import { errorMessage } from "../../shared/error-message.js";
import { findCommand } from "./command-table.js";

/** A markdown prompt template of `~/.config/local-finder/commands/`, typed as `/name ARGUMENTS`. */
export interface CustomCommand {
  name: string;
  description: string;
  template: string;
}

const COMMAND_NAME = /^[a-z0-9][a-z0-9_-]*$/;
const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;

async function parseCommand(name: string, text: string): Promise<CustomCommand | string> {
  const match = FRONT_MATTER.exec(text);
  let description: string | undefined;
  if (match) {
    // The YAML parser loads only for a command with front matter: most runs have none.
    const { parse: parseYaml } = (await import("yaml")).default;
    try {
      const data = parseYaml(match[1]!) as { description?: unknown } | null;
      if (typeof data?.description === "string") description = data.description.trim();
    } catch (error) {
      return `its front matter is not YAML (${errorMessage(error).split("\n")[0]})`;
    }
  }
  const template = (match ? text.slice(match[0].length) : text).trim();
  if (!template) return "it is empty";
  description ??= template
    .split("\n")[0]!
    .replace(/^#+\s*/, "")
    .slice(0, 60);
  return { name, description, template };
}

/**
 * The custom commands of `dir` (one `NAME.md` each; optional YAML front matter with a
 * `description`), by name. Returns problems to show; a missing directory is no commands.
 */
export async function loadCustomCommands(dir: string): Promise<{ commands: CustomCommand[]; problems: string[] }> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => extname(name) === ".md").sort();
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    return { commands: [], problems: missing ? [] : [`Could not read ${dir}: ${errorMessage(error)}.`] };
  }
  const commands: CustomCommand[] = [];
  const problems: string[] = [];
  for (const file of names) {
    const name = basename(file, ".md").toLowerCase();
    if (!COMMAND_NAME.test(name)) {
      problems.push(`Custom command ${file} is left out: name it with letters, digits, _ and - only.`);
      continue;
    }
    if (findCommand(name, "slash")) {
      problems.push(`Custom command ${file} is left out: /${name} is a built-in command; rename the file.`);
      continue;
    }
    const parsed = await parseCommand(name, await readFile(join(dir, file), "utf8"));
    if (typeof parsed === "string") problems.push(`Custom command ${file} is left out: ${parsed}.`);
    else commands.push(parsed);
  }
  return { commands, problems };
}

/** The prompt a command expands to: `$ARGUMENTS` replaced, or the arguments added at the end when it has none. */
export function expandCustomCommand(command: CustomCommand, args: string): string {
  if (command.template.includes("$ARGUMENTS")) return command.template.replaceAll("$ARGUMENTS", args);
  return args ? `${command.template}\n\n${args}` : command.template;
}

/** `/name rest` when `name` is one of `commands`; undefined for any other line. */
export function matchCustomCommand(
  line: string,
  commands: readonly CustomCommand[],
): { command: CustomCommand; args: string } | undefined {
  const match = /^\/([^\s/]+)(?:\s+([\s\S]*))?$/.exec(line.trim());
  const command = match && commands.find((candidate) => candidate.name === match[1]!.toLowerCase());
  return command ? { command, args: (match[2] ?? "").trim() } : undefined;
}
