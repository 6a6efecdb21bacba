import { isAbsolute } from "node:path";
import { z } from "zod";
import { ensureMarvinGitignore } from "../../../workspace/own-dirs.js";
import { defineTool, ToolError } from "../../kit/define-tool.js";
import { capped, gitFailure, gitOrThrow, runGit } from "./run-git.js";

const UNKNOWN_AUTHOR = /please tell me who you are|author identity unknown|unable to auto-detect email/i;

const gitCommit = defineTool({
  name: "git_commit",
  effect: "write",
  description:
    "Commit changes in the working dir. By default stages everything in it first (new, changed and deleted files); " +
    "add_all=false commits only what is already staged.",
  codingOnly: true,
  timeoutMs: 120_000,
  parameters: z.object({
    message: z.string().trim().min(1).describe("A short summary line, optionally a blank line and details"),
    add_all: z.boolean().default(true),
  }),
  handler: async ({ message, add_all }, context) => {
    if (add_all) {
      // Marvin's runtime files (.marvin/logs, reviews…) never go into the user's commits.
      if (context.workingDir) await ensureMarvinGitignore(context.workingDir);
      // "-- ." keeps staging inside the working dir even when the repository root is above it.
      await gitOrThrow(context, ["add", "--all", "--", "."], "change");
    }
    const args = ["commit", "-m", message];
    const outcome = await runGit(context, args, "change");
    if (outcome.code === 0) return capped(outcome.stdout, "(summary cut)");
    const output = `${outcome.stdout}\n${outcome.stderr}`;
    if (/nothing to commit|no changes added to commit|nothing added to commit/i.test(output)) {
      return add_all
        ? "Nothing to commit: the working tree is clean."
        : "Nothing to commit: nothing is staged. Call git_commit with add_all=true to stage all changes.";
    }
    if (UNKNOWN_AUTHOR.test(output)) {
      throw new ToolError(
        'git does not know who the author is. Set it for this repository with run_command("git config user.name ' +
          '\\"Your Name\\" && git config user.email you@example.com") (ask the user for the values), then ' +
          "commit again.",
      );
    }
    return gitFailure(context, args, outcome);
  },
});

const gitCheckout = defineTool({
  name: "git_checkout",
  effect: "write",
  description:
    "Switch to a branch or commit, create and switch to a new branch (create_branch=true), or restore a file to its " +
    "committed state (discarding its changes).",
  codingOnly: true,
  parameters: z.object({
    target: z.string().trim().min(1).describe("Branch name, commit, or file path; '-' for the previous branch"),
    create_branch: z.boolean().default(false),
  }),
  handler: async ({ target, create_branch }, context) => {
    if (target.startsWith("-") && target !== "-")
      throw new ToolError(
        `'${target}' looks like an option, not a branch, commit or path. Give the name without leading dashes.`,
      );
    if (isAbsolute(target) || target.split(/[\\/]/).includes("..")) {
      throw new ToolError(
        `git_checkout works inside the working dir only: '${target}' is an absolute path or climbs out with '..'. ` +
          `Use a branch, a commit, or a path relative to the working dir.`,
      );
    }
    if (create_branch && target === "-") throw new ToolError("'-' is not a valid new branch name.");
    const outcome = await runGit(context, ["checkout", ...(create_branch ? ["-b"] : []), target], "change");
    if (outcome.code !== 0) {
      if (/would be overwritten by checkout/i.test(outcome.stderr)) {
        throw new ToolError(
          `git checkout ${target} refused: uncommitted changes would be ` +
            `overwritten.\n${outcome.stderr.trim()}\nCommit them with git_commit first (or restore those files).`,
        );
      }
      return gitFailure(context, ["checkout", target], outcome);
    }
    const current = (await runGit(context, ["branch", "--show-current"])).stdout.trim();
    const said = `${outcome.stderr}\n${outcome.stdout}`.trim();
    const where = current ? `Now on branch ${current}.` : "HEAD is detached (not on a branch).";
    return `${said || `Checked out ${target}.`}\n${where}`;
  },
});

export const gitWriteTools = [gitCommit, gitCheckout];
