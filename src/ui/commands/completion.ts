import { type Dirent, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { FileIndex } from "../../workspace/file-index.js";
import { findCommand, LISTED_COMMANDS } from "./command-table.js";
import type { CustomCommand } from "./custom-commands.js";

/** One choice for the word being completed. */
export interface CompletionItem {
  /** What replaces the word. */
  value: string;
  /** How the menu shows it. */
  label: string;
  /** One line after the label: a command's summary, "tool". */
  detail?: string;
  /** Accepting it (Enter) runs the line: a command name. */
  runs?: boolean;
}

/** The choices for the word that ends at the cursor, which occupies `start`…`end` of the line. */
export interface Completions {
  start: number;
  end: number;
  items: CompletionItem[];
}

interface CompletionSources {
  customCommands: readonly CustomCommand[];
  toolNames: () => readonly string[];
  /** The themes there are, for `/theme <Tab>`. */
  themeNames: () => readonly string[];
  /** Where relative paths start: the working directory, else where Marvin started. */
  root: () => string;
  home: string;
  files: FileIndex;
}

/** `/name ` or `!name ` before the first argument of a command. */
const COMMAND_BEFORE_ARGUMENT = /^([/!])(\S+) +$/;

/** Choices offered at most, so a menu and a Tab listing stay short. */
const MAX_ITEMS = 50;

/** The first index of `sorted` whose entry is not below `prefix`. */
function lowerBound(sorted: readonly string[], prefix: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle]! < prefix) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The entries one level below what is typed: `src/ag` → `src/agent/`, `src/agent/lo` → `src/agent/loop.ts`.
 * `files` is sorted, so the matches are one run of it, found by binary search (fast at 50,000 files).
 */
function nextSegments(files: readonly string[], typed: string): string[] {
  const segmentStart = typed.lastIndexOf("/") + 1;
  const found: string[] = [];
  for (let index = lowerBound(files, typed); index < files.length && found.length < MAX_ITEMS; index++) {
    const file = files[index]!;
    if (!file.startsWith(typed)) break;
    const slash = file.indexOf("/", Math.max(segmentStart, typed.length));
    const entry = slash < 0 ? file : file.slice(0, slash + 1);
    if (found.at(-1) !== entry) found.push(entry);
  }
  return found;
}

/** The entries of `dir` whose names start with `start`, sorted; hidden ones only when `start` begins with a dot. */
function entriesOf(dir: string, start: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.name.startsWith(start) && (start.startsWith(".") || !entry.name.startsWith(".")))
    .sort((a, b) => a.name.localeCompare(b.name))
    .slice(0, MAX_ITEMS)
    .map((entry) => `${entry.name}${entry.isDirectory() ? "/" : ""}`);
}

/** `typed` cut after its last slash: the folder and the start of the name in it. */
function splitAtFolder(typed: string): { folder: string; start: string } {
  const cut = typed.lastIndexOf("/") + 1;
  return { folder: typed.slice(0, cut), start: typed.slice(cut) };
}

/** The entries of a directory under `home` for `~/…`, expanded to absolute paths. */
function homeEntries(home: string, typed: string): CompletionItem[] {
  const { folder, start } = splitAtFolder(typed.replace(/^~\/?/, ""));
  return entriesOf(join(home, folder), start).map((entry) => ({
    value: join(home, folder, entry),
    label: `~/${folder}${entry}`,
  }));
}

/** The entries of a directory above `root` for `../…` (outside the index), kept as typed. */
function parentEntries(root: string, typed: string): CompletionItem[] {
  const { folder, start } = splitAtFolder(typed);
  return entriesOf(resolve(root, folder), start).map((entry) => ({ value: folder + entry, label: folder + entry }));
}

/**
 * Completion for both UIs (seed 003): `/` commands with their summaries at the start of the line,
 * `@path` and `@tool` mentions, file paths relative to the working directory (from a cached `rg --files`
 * index, so ignore files are respected; `./` kept as typed), `../…` from the directory above, and `~/…`
 * expanded to the home directory.
 */
export class Completer {
  constructor(private readonly sources: CompletionSources) {}

  /**
   * The choices for the word before `cursor`. Without `explicit` (the menu as one types) only `/` and `@`
   * words are completed; with it (Tab) plain paths and `~` too. Undefined when there is nothing to offer.
   */
  complete(text: string, cursor: number, explicit: boolean): Completions | undefined {
    const start = Math.max(text.lastIndexOf(" ", cursor - 1), text.lastIndexOf("\n", cursor - 1)) + 1;
    const word = text.slice(start, cursor);
    const argument = explicit ? this.argumentChoices(text.slice(0, start), word) : undefined;
    const items = argument ?? this.itemsFor(word, start === 0, explicit);
    return items.length ? { start, end: cursor, items } : undefined;
  }

  /** Like `complete`, waiting for the file index when it is still being made (Tab in the plain UI). */
  async completeWhenReady(text: string, cursor: number): Promise<Completions | undefined> {
    this.sources.files.files(this.sources.root());
    await this.sources.files.settled();
    return this.complete(text, cursor, true);
  }

  private itemsFor(word: string, atLineStart: boolean, explicit: boolean): CompletionItem[] {
    if (atLineStart && word.startsWith("/")) return this.commands(word.slice(1).toLowerCase());
    if (word.startsWith("@")) return this.mentions(word.slice(1));
    if (!explicit) return [];
    if (word.startsWith("~")) return homeEntries(this.sources.home, word);
    return this.relativePaths(word);
  }

  /** Paths relative to the root: from the index, and `./…` as `@` completes them; `../…` from the directory. */
  private relativePaths(word: string): CompletionItem[] {
    const dotted = /^(?:\.\/)*/.exec(word)![0];
    const rest = word.slice(dotted.length);
    if (rest.startsWith("../")) return parentEntries(this.sources.root(), word);
    return this.paths(rest).map((path) => ({ value: dotted + path, label: dotted + path }));
  }

  /** The choices a command declares for its first argument (`/theme <Tab>`), if `before` is such a command. */
  private argumentChoices(before: string, word: string): CompletionItem[] | undefined {
    const command = COMMAND_BEFORE_ARGUMENT.exec(before);
    if (!command) return undefined;
    const choices = findCommand(command[2]!, command[1] === "/" ? "slash" : "bang")?.choices;
    if (!choices) return undefined;
    const typed = word.toLowerCase();
    return choices({ themeNames: this.sources.themeNames })
      .filter((choice) => choice.toLowerCase().startsWith(typed))
      .map((choice) => ({ value: choice, label: choice }));
  }

  private commands(typed: string): CompletionItem[] {
    const builtIn = LISTED_COMMANDS.map((command) => ({
      name: command.name,
      usage: command.usage,
      summary: command.summary,
    }));
    const custom = this.sources.customCommands.map((command) => ({
      name: command.name,
      usage: undefined,
      summary: command.description,
    }));
    return [...builtIn, ...custom]
      .filter((command) => command.name.startsWith(typed))
      .map((command) => ({
        value: `/${command.name}`,
        label: command.usage ? `/${command.name} ${command.usage}` : `/${command.name}`,
        detail: command.summary,
        runs: true,
      }));
  }

  private mentions(typed: string): CompletionItem[] {
    const tools = typed.includes("/")
      ? []
      : this.sources
          .toolNames()
          .filter((name) => name.startsWith(typed))
          .sort()
          .map((name) => ({ value: `@${name}`, label: `@${name}`, detail: "tool" }));
    const paths = this.paths(typed).map((path) => ({ value: `@${path}`, label: `@${path}` }));
    return [...paths, ...tools].slice(0, MAX_ITEMS);
  }

  private paths(typed: string): string[] {
    const files = this.sources.files.files(this.sources.root());
    return files ? nextSegments(files, typed) : [];
  }
}
