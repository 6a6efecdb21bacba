import type { Dirent } from "node:fs";
import { readdir, readlink, stat } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { IgnoreRules } from "../../../workspace/grep/ignore-rules.js";
import { defineTool, ToolError } from "../../kit/define-tool.js";
import { locate } from "./locate.js";

/** Never shown. */
const HIDDEN = new Set([".git"]);
/** Shown, but their contents are not listed. */
const COLLAPSED = new Set(["node_modules"]);

interface TreeOptions {
  maxDepth: number;
  maxEntries: number;
  respectGitignore: boolean;
}

interface TreeState {
  lines: string[];
  directories: number;
  files: number;
  /** Entries past maxEntries, counted down to maxDepth. */
  omitted: number;
  ignored: number;
  /** Directories shown but not expanded because of maxDepth. */
  depthLimited: number;
}

const byKindThenName = (a: Dirent, b: Dirent) =>
  Number(b.isDirectory()) - Number(a.isDirectory()) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

async function entryLine(root: string, relative: string, entry: Dirent, expandable: boolean): Promise<string> {
  if (entry.isSymbolicLink()) return `${entry.name} -> ${await readlink(join(root, relative)).catch(() => "?")}`;
  if (!entry.isDirectory()) return entry.name;
  if (COLLAPSED.has(entry.name)) return `${entry.name}/ (contents not listed)`;
  if (expandable) return `${entry.name}/`;
  const count = (await readdir(join(root, relative)).catch(() => [])).length;
  return `${entry.name}/ (${count === 0 ? "empty" : `${count} entr${count === 1 ? "y" : "ies"}`})`;
}

async function walk(
  root: string,
  directory: string,
  depth: number,
  rules: IgnoreRules,
  options: TreeOptions,
  state: TreeState,
): Promise<void> {
  const entries = (await readdir(join(root, directory), { withFileTypes: true }).catch(() => [])).sort(byKindThenName);
  const own = options.respectGitignore
    ? await rules.descend(root, directory, new Set(entries.map((entry) => entry.name)))
    : rules;
  for (const entry of entries) {
    if (HIDDEN.has(entry.name)) continue;
    const relative = directory ? `${directory}/${entry.name}` : entry.name;
    const isDirectory = entry.isDirectory();
    if (options.respectGitignore && own.ignores(relative, isDirectory)) {
      state.ignored++;
      continue;
    }
    const expandable = isDirectory && !COLLAPSED.has(entry.name) && depth + 1 < options.maxDepth;
    if (state.lines.length >= options.maxEntries) state.omitted++;
    else {
      state.lines.push(`${"  ".repeat(depth)}${await entryLine(root, relative, entry, expandable)}`);
      if (isDirectory) state.directories++;
      else state.files++;
      if (isDirectory && !expandable && !COLLAPSED.has(entry.name)) state.depthLimited++;
    }
    if (expandable) await walk(root, relative, depth + 1, own, options, state);
  }
}

/** An indented listing of `start` (posix, relative to `root`): directories first, caps reported. */
async function renderTree(root: string, start: string, options: TreeOptions): Promise<string> {
  const directory = start === "." ? "" : start;
  const inherited = options.respectGitignore ? await IgnoreRules.inheritedBy(root, directory) : IgnoreRules.none;
  const state: TreeState = { lines: [], directories: 0, files: 0, omitted: 0, ignored: 0, depthLimited: 0 };
  await walk(root, directory, 0, inherited, options, state);
  const header = directory ? `${directory}/` : `${root}/`;
  const notes = [
    `${state.directories} director${state.directories === 1 ? "y" : "ies"}, ${state.files} ` +
      `file${state.files === 1 ? "" : "s"} shown.`,
  ];
  if (state.omitted)
    notes.push(
      `… ${state.omitted} more entries not shown (max_entries=${options.maxEntries}); pass a subdirectory as path or ` +
        `raise max_entries.`,
    );
  if (state.depthLimited)
    notes.push(
      `${state.depthLimited} director${state.depthLimited === 1 ? "y was" : "ies were"} not expanded ` +
        `(max_depth=${options.maxDepth}); raise max_depth or pass one as path.`,
    );
  if (state.ignored)
    notes.push(
      `${state.ignored} entr${state.ignored === 1 ? "y" : "ies"} hidden by .gitignore (respect_gitignore=false ` +
        `shows them).`,
    );
  const body = state.lines.length ? state.lines.join("\n") : "(empty directory)";
  return `${header}\n${body}\n\n${notes.join("\n")}`;
}

export const tree = defineTool({
  name: "tree",
  effect: "read",
  description: "Directory tree of the working dir or a subdirectory, directories first.",
  codingOnly: true,
  parameters: z.object({
    path: z.string().default(".").describe("Directory to list"),
    max_depth: z
      .number()
      .int()
      .min(1)
      .max(20)
      .default(3)
      .describe("Levels to expand (1 = only the directory's own entries)"),
    respect_gitignore: z.boolean().default(true).describe("Hide what .gitignore (and .ignore) exclude"),
    max_entries: z.number().int().min(10).max(5000).default(300).describe("Most entries to list"),
  }),
  handler: async (args, context) => {
    const { root, absolute, relative } = await locate(context, args.path);
    const info = await stat(absolute).catch(() => undefined);
    if (!info)
      throw new ToolError(
        `${args.path} does not exist in the working dir. Call tree without a path to see what is there.`,
      );
    if (!info.isDirectory()) throw new ToolError(`${args.path} is a file, not a directory. Use read_file to read it.`);
    return renderTree(root, relative, {
      maxDepth: args.max_depth,
      maxEntries: args.max_entries,
      respectGitignore: args.respect_gitignore,
    });
  },
});
