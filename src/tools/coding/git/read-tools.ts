import { z } from "zod";
import { defineTool, ToolError } from "../../kit/define-tool.js";
import { resultLimit } from "../../kit/lenient-parameters.js";
import { capped, gitFailure, gitOrThrow, gitPath, runGit } from "./run-git.js";

const gitStatus = defineTool({
  name: "git_status",
  effect: "read",
  description: "Show the git status of the working dir: current branch, staged, modified and untracked files.",
  codingOnly: true,
  parameters: z.object({}),
  handler: async (_args, context) => {
    const { stdout } = await gitOrThrow(context, ["status", "--short", "--branch"]);
    const lines = stdout.trimEnd().split("\n");
    const clean = lines.length <= 1 ? "\nNothing to commit, working tree clean." : "";
    return (
      `${capped(stdout, "(status cut; pass a path to git_diff to look at parts)")}${clean}\n(XY codes: first ` +
      `column = staged, second = working tree; ?? = untracked)`
    );
  },
});

const gitDiff = defineTool({
  name: "git_diff",
  effect: "read",
  description:
    "Show changes as a diff: unstaged by default, staged with staged=true; limit to one file or directory with path.",
  codingOnly: true,
  parameters: z.object({
    staged: z.boolean().default(false).describe("Show staged changes (what git_commit would commit without add_all)"),
    path: z.string().nullable().default(null).describe("Only this file or directory"),
  }),
  handler: async ({ staged, path }, context) => {
    const args = ["diff", "--no-color", "--no-ext-diff", "--no-textconv"];
    if (staged) args.push("--cached");
    if (path) args.push("--", await gitPath(context, path));
    const { stdout } = await gitOrThrow(context, args);
    if (!stdout.trim()) {
      const scope = path ? ` in ${path}` : "";
      return staged
        ? `No staged changes${scope}.`
        : `No unstaged changes${scope}. (New untracked files do not show in a diff; git_status lists them.)`;
    }
    return capped(stdout, "The diff was cut: pass path to look at one file or directory at a time.");
  },
});

const gitLog = defineTool({
  name: "git_log",
  effect: "read",
  description: "Show recent commits, newest first.",
  codingOnly: true,
  parameters: z.object({
    max_count: resultLimit(200, 10, "How many commits"),
    oneline: z
      .boolean()
      .default(true)
      .describe("One line per commit; false adds author, full message and changed files"),
  }),
  handler: async ({ max_count, oneline }, context) => {
    const format = oneline ? ["--format=%h %as %an%d: %s"] : ["--stat", "--format=medium"];
    const args = ["log", "--no-color", "--no-ext-diff", "--no-textconv", `--max-count=${max_count}`, ...format];
    const outcome = await runGit(context, args);
    if (outcome.code !== 0) {
      if (/does not have any commits yet|bad default revision/i.test(outcome.stderr)) return "No commits yet.";
      await gitFailure(context, args, outcome);
    }
    return capped(outcome.stdout, "The log was cut: lower max_count or use oneline=true.");
  },
});

const gitBlame = defineTool({
  name: "git_blame",
  effect: "read",
  description: "Show who last changed each line of a file, and in which commit (optionally only a range of lines).",
  codingOnly: true,
  parameters: z.object({
    path: z.string().min(1),
    start_line: z.number().int().min(1).nullable().default(null).describe("First line (1-based)"),
    end_line: z.number().int().min(1).nullable().default(null).describe("Last line (inclusive)"),
  }),
  handler: async ({ path, start_line, end_line }, context) => {
    if (start_line && end_line && end_line < start_line)
      throw new ToolError(`end_line (${end_line}) is before start_line (${start_line}).`);
    const args = ["blame", "--no-textconv", "--date=short"];
    if (start_line || end_line) args.push("-L", `${start_line ?? 1},${end_line ?? ""}`);
    args.push("--", await gitPath(context, path));
    const { stdout } = await gitOrThrow(context, args);
    return capped(stdout, "The blame was cut: pass start_line and end_line for a smaller range.");
  },
});

const gitBranch = defineTool({
  name: "git_branch",
  effect: ({ name }) => (name?.trim() ? "write" : "read"),
  description:
    "List branches (the current one is marked *), or create a new branch at the current commit with name (without " +
    "switching to it).",
  codingOnly: true,
  parameters: z.object({
    name: z.string().nullable().default(null).describe("Create a branch with this name; omit to list branches"),
    all: z.boolean().default(false).describe("Also list remote-tracking branches"),
  }),
  handler: async ({ name, all }, context) => {
    if (name?.trim()) {
      const branch = name.trim();
      if (branch.startsWith("-"))
        throw new ToolError(`'${branch}' is not a valid branch name: it must not start with '-'.`);
      await gitOrThrow(context, ["branch", branch], "change");
      const current = (await runGit(context, ["branch", "--show-current"])).stdout.trim();
      return `Created branch ${branch}${current ? ` (still on ${current})` : ""}. Switch to it with git_checkout.`;
    }
    const { stdout } = await gitOrThrow(context, ["branch", "--no-color", "-vv", ...(all ? ["--all"] : [])]);
    if (stdout.trim()) return capped(stdout, "The list was cut.");
    const current = (await runGit(context, ["branch", "--show-current"])).stdout.trim();
    return `No branches yet (no commits).${current ? ` The first commit will be on ${current}.` : ""}`;
  },
});

export const gitReadTools = [gitStatus, gitDiff, gitLog, gitBlame, gitBranch];
