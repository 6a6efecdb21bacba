import { stat } from "node:fs/promises";
import { z } from "zod";
import { formatGrepResult, type GrepQuery } from "../../../workspace/grep/format.js";
import { globFilters } from "../../../workspace/grep/glob.js";
import { searchTree } from "../../../workspace/grep/search-tree.js";
import { notRegularFile } from "../../../workspace/regular-file.js";
import { defineTool } from "../../kit/define-tool.js";
import { resultLimit } from "../../kit/lenient-parameters.js";
import { locate } from "./locate.js";

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
    max_results: resultLimit(500, 20, "Most matching lines to show"),
    ignore_case: z.boolean().default(false),
    path: z.string().default(".").describe("Directory or file to search"),
  }),
  handler: async (args, context) => {
    const { root, absolute, relative: searchPath } = await locate(context, args.path);
    const target = await stat(absolute).catch(() => undefined);
    if (target && !target.isFile() && !target.isDirectory()) throw notRegularFile(args.path, target);
    const query: GrepQuery = {
      pattern: args.pattern,
      globs: globFilters(args.glob_filter),
      contextLines: args.context_lines,
      maxResults: args.max_results,
      ignoreCase: args.ignore_case,
      searchPath,
    };
    const result = await searchTree(root, query, {
      env: context.env,
      signal: context.signal,
      isFile: !target?.isDirectory(),
    });
    return formatGrepResult(result, query);
  },
});
