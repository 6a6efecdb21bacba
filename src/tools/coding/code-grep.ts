import { z } from "zod";
import { defineTool } from "../define-tool.js";
import { splitGlobList } from "./glob.js";
import { builtinSearch } from "./grep-builtin.js";
import { formatGrepResult, type GrepQuery } from "./grep-format.js";
import { ripgrepSearch } from "./grep-ripgrep.js";
import { locate } from "./locate.js";

const MATCH_ALL = new Set(["", "*", "**", "**/*"]);

export const codeGrep = defineTool({
  name: "code_grep",
  effect: "read",
  description:
    "Search the working dir's files for a regular expression (ripgrep syntax), with context lines. " +
    "Respects .gitignore; skips .git, node_modules, .marvin and binary files. Results are sorted by path and capped at max_results matching lines.",
  codingOnly: true,
  parameters: z.object({
    pattern: z.string().min(1).describe("Regular expression, e.g. 'function \\w+Handler' or 'TODO'"),
    glob_filter: z.string().default("*").describe("Only files matching this glob, e.g. '*.ts', 'src/**/*.py', '*.{ts,tsx}'; '!glob' excludes"),
    context_lines: z.number().int().min(0).max(20).default(2).describe("Lines shown before and after each match"),
    max_results: z.number().int().min(1).max(500).default(20).describe("Most matching lines to show"),
    ignore_case: z.boolean().default(false).describe("Case-insensitive search"),
    path: z.string().default(".").describe("Directory or file to search, relative to the working dir"),
  }),
  handler: async (args, context) => {
    const { root, relative: searchPath } = await locate(context, args.path);
    const query: GrepQuery = {
      pattern: args.pattern,
      globs: MATCH_ALL.has(args.glob_filter.trim()) ? [] : splitGlobList(args.glob_filter),
      contextLines: args.context_lines,
      maxResults: args.max_results,
      ignoreCase: args.ignore_case,
      searchPath,
    };
    const result = (await ripgrepSearch(root, query, context.env, context.signal)) ?? (await builtinSearch(root, query, context.signal));
    return formatGrepResult(result, query);
  },
});
