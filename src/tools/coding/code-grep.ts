import { stat } from "node:fs/promises";
import { z } from "zod";
import { notRegularFile } from "../../workspace/regular-file.js";
import { defineTool } from "../define-tool.js";
import { splitGlobList } from "./glob.js";
import { builtinSearch, searchOverrides } from "./grep-builtin.js";
import { formatGrepResult, type GrepQuery } from "./grep-format.js";
import { ripgrepSearch } from "./grep-ripgrep.js";
import { locate } from "./locate.js";
import { unsafeIgnoreFiles } from "./walk-files.js";

const MATCH_ALL = new Set(["", "*", "**", "**/*"]);

/**
 * ripgrep opens the ignore files of the directories it searches itself: it is left to do so only
 * when none is a symlink leading out of the working dir or a FIFO (the built-in search skips those).
 */
async function ripgrepMayRead(root: string, query: GrepQuery, signal: AbortSignal): Promise<boolean> {
  return (await unsafeIgnoreFiles(root, query.searchPath, searchOverrides(query), signal)).length === 0;
}

export const codeGrep = defineTool({
  name: "code_grep",
  effect: "read",
  description:
    "Regex search (ripgrep syntax) of the working dir's files, with context lines, sorted by path. " +
    "Skips what .gitignore excludes, .git, node_modules, .marvin and binary files.",
  codingOnly: true,
  parameters: z.object({
    pattern: z.string().min(1).describe("e.g. 'function \\w+Handler' or 'TODO'"),
    glob_filter: z
      .string()
      .default("*")
      .describe("Only matching files, e.g. '*.ts', 'src/**/*.py', '*.{ts,tsx}'; '!glob' excludes"),
    context_lines: z.number().int().min(0).max(20).default(2).describe("Lines before and after each match"),
    max_results: z.number().int().min(1).max(500).default(20).describe("Most matching lines to show"),
    ignore_case: z.boolean().default(false),
    path: z.string().default(".").describe("Directory or file to search"),
  }),
  handler: async (args, context) => {
    const { root, absolute, relative: searchPath } = await locate(context, args.path);
    const target = await stat(absolute).catch(() => undefined);
    if (target && !target.isFile() && !target.isDirectory()) throw notRegularFile(args.path, target);
    const query: GrepQuery = {
      pattern: args.pattern,
      globs: MATCH_ALL.has(args.glob_filter.trim()) ? [] : splitGlobList(args.glob_filter),
      contextLines: args.context_lines,
      maxResults: args.max_results,
      ignoreCase: args.ignore_case,
      searchPath,
    };
    const ripgrep = target?.isDirectory() ? await ripgrepMayRead(root, query, context.signal) : true;
    const found = ripgrep ? await ripgrepSearch(root, query, context.env, context.signal) : undefined;
    const result = found ?? (await builtinSearch(root, query, context.signal));
    return formatGrepResult(result, query);
  },
});
