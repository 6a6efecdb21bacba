import { type CommandDefinition, LISTED_COMMANDS } from "./command-table.js";

/** `/model [PROVIDER [MODEL]]`, with the other names: `/shell, /sh`. */
function synopsis(command: CommandDefinition): string {
  const names = [command.name, ...(command.aliases ?? [])].map((name) => `/${name}`).join(", ");
  return command.usage ? `${names} ${command.usage}` : names;
}

/** The older forms a command still answers to: `also !model`, `also help, !help`. */
function otherForms(command: CommandDefinition): string {
  const names = [command.name, ...(command.aliases ?? [])];
  const forms = [...(command.word ? names : []), ...(command.bang ? names.map((name) => `!${name}`) : [])];
  return forms.length ? ` (also ${forms.join(", ")})` : "";
}

/** The column the help's descriptions start at: a UI that wraps a row goes on under its description there. */
export const HELP_DESCRIPTION_COLUMN = 30;

/** One row of the help's two-column tables: `  left   description`. */
export function helpRow(left: string, right: string): string {
  return `  ${left.padEnd(HELP_DESCRIPTION_COLUMN - 3)} ${right}`;
}

/** The `/help` text, from the command table; UI-specific keys (scrolling, Ctrl+R…) are added by each UI. */
export const COMMAND_HELP = [
  "Commands (type / to see them as you type; Tab completes):",
  ...LISTED_COMMANDS.map((command) => helpRow(synopsis(command), `${command.summary}${otherForms(command)}`)),
  helpRow("!COMMAND", "run COMMAND in the shell, in the working directory (on the terminal: vim works)"),
  helpRow("/NAME [ARGUMENTS]", "a custom command of ~/.config/local-finder/commands/ (listed below)"),
  helpRow("@PATH", "attach a file of the working directory to the message"),
  helpRow("Ctrl+C", "stop the answer or command in progress; twice on an empty prompt: leave"),
  "Anything else is sent to Marvin; a line starting with / never is.",
].join("\n");
