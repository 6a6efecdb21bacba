import { existsSync } from "node:fs";
import { lstat, realpath } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { toolChildEnv } from "../../../shared/child-env.js";
import { truncateText } from "../../../shared/truncate.js";
import { type GitRun, runGitProcess } from "../../../workspace/git-process.js";
import { resolveInside } from "../../../workspace/sandbox.js";
import { type ToolContext, ToolError } from "../../kit/define-tool.js";
import { GIT_CHANGE_ARGS, GIT_LOOK_ARGS, gitConfigArgs } from "../../kit/git-safety.js";
import { requireWorkingDir } from "../../kit/require-working-dir.js";
import { requireOwnGitDirs } from "./own-git-dirs.js";

/** Most characters of git output handed to the model. */
const MAX_GIT_OUTPUT = 30_000;

/**
 * "inspect" calls run nothing that the repository's own .git/config or .gitattributes names (a
 * hostile checkout must not get code run by git_status); "change" calls (commit, checkout,
 * creating a branch) keep the repository's hooks and filters, as the user's own git would.
 */
type GitAccess = "inspect" | "change";

const FILTER_COMMANDS = ["clean", "smudge", "process"];

function gitEnv(context: ToolContext): NodeJS.ProcessEnv {
  // Never prompt for credentials or an editor; skip optional index locks on reads.
  return { ...toolChildEnv(context.env), GIT_TERMINAL_PROMPT: "0", GIT_EDITOR: "true", GIT_OPTIONAL_LOCKS: "0" };
}

/**
 * The directory holding the `.git` that git finds from `cwd`. Git is told to use it as the work
 * tree, so a repository whose config sets `core.worktree` elsewhere cannot show or stage files
 * outside the project.
 */
async function discoveredWorkTree(cwd: string): Promise<string | undefined> {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (
      await lstat(join(dir, ".git")).then(
        () => true,
        () => false,
      )
    )
      return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** Runs `git <safety arguments> args` in `cwd`, with git told to use the work tree it finds there. */
async function exec(args: string[], cwd: string, context: ToolContext, safety: readonly string[]): Promise<GitRun> {
  const workTree = await discoveredWorkTree(cwd);
  const before = [...(workTree ? [`--work-tree=${workTree}`] : []), ...safety];
  return runGitProcess(args, { before, cwd, env: gitEnv(context), signal: context.signal });
}

/** The working dir, checked to still exist (a missing cwd would look like a missing git). */
function gitDirectory(context: ToolContext): string {
  const dir = requireWorkingDir(context);
  if (!existsSync(dir))
    throw new ToolError(`The working dir ${dir} no longer exists. Call set_working_dir with an existing directory.`);
  return dir;
}

/**
 * Settings that blank every filter driver the repository configures: status, diff and blame run
 * a driver's clean command on changed files, chosen by the repository's own .gitattributes.
 */
async function disabledFilters(cwd: string, context: ToolContext): Promise<string[]> {
  const listing = ["config", "-z", "--name-only", "--get-regexp", "^filter\\."];
  const keys = (await exec(listing, cwd, context, GIT_LOOK_ARGS)).stdout.split("\0");
  const drivers = new Set(keys.map((key) => key.slice("filter.".length, key.lastIndexOf("."))).filter(Boolean));
  return [...drivers].flatMap((driver) => {
    // `-c` splits at the first "=", so such a driver could not be switched off.
    if (driver.includes("=")) {
      throw new ToolError(
        `Not running git here: the repository's config names a filter driver '${driver}' that cannot be switched off.`,
      );
    }
    return [...FILTER_COMMANDS.map((command) => `filter.${driver}.${command}=`), `filter.${driver}.required=false`];
  });
}

/** Runs git in the working dir; a non-zero exit is returned, not thrown. */
export async function runGit(context: ToolContext, args: string[], access: GitAccess = "inspect"): Promise<GitRun> {
  const cwd = gitDirectory(context);
  if (access === "change") {
    const workTree = await discoveredWorkTree(cwd);
    const located = ["rev-parse", "--path-format=absolute", "--absolute-git-dir", "--git-common-dir"];
    if (workTree) await requireOwnGitDirs(workTree, await exec(located, cwd, context, GIT_LOOK_ARGS));
    return exec(args, cwd, context, GIT_CHANGE_ARGS);
  }
  return exec(args, cwd, context, [...GIT_LOOK_ARGS, ...gitConfigArgs(await disabledFilters(cwd, context))]);
}

async function notARepository(context: ToolContext, outcome: GitRun): Promise<boolean> {
  if (/not a git repository/i.test(outcome.stderr)) return true;
  if (outcome.code !== 128) return false;
  return (await runGit(context, ["rev-parse", "--is-inside-work-tree"])).code !== 0;
}

/** Runs git and throws a ToolError written for the model when it fails. */
export async function gitOrThrow(context: ToolContext, args: string[], access?: GitAccess): Promise<GitRun> {
  const outcome = await runGit(context, args, access);
  return outcome.code === 0 ? outcome : gitFailure(context, args, outcome);
}

/** Throws the ToolError for a failed git call: a bare repository, not a repository, or git's own message. */
export async function gitFailure(context: ToolContext, args: string[], outcome: GitRun): Promise<never> {
  if (/cannot use bare repository/i.test(outcome.stderr)) {
    throw new ToolError(
      `${gitDirectory(context)} is a bare git repository (or inside one), which the git tools do not open: a ` +
        "cloned repository can carry one with hooks of its own. Work in a repository with a work tree.",
    );
  }
  if (await notARepository(context, outcome)) {
    throw new ToolError(
      `${gitDirectory(context)} is not a git repository (nor inside one). Create one with run_command("git init"), ` +
        `or set_working_dir to the repository.`,
    );
  }
  const message = (outcome.stderr.trim() || outcome.stdout.trim() || `exit code ${outcome.code}`).slice(0, 4000);
  throw new ToolError(`git ${args[0]} failed: ${message}`);
}

/** `requested` as a git pathspec relative to the working dir, checked by the sandbox. */
export async function gitPath(context: ToolContext, requested: string): Promise<string> {
  const root = await realpath(gitDirectory(context));
  const absolute = await resolveInside(root, requested);
  return relative(root, absolute).split(sep).join("/") || ".";
}

/** Output for the model: trimmed, capped, with a hint when cut. */
export function capped(text: string, hint: string): string {
  const trimmed = text.replace(/\s+$/, "");
  return trimmed.length > MAX_GIT_OUTPUT ? `${truncateText(trimmed, MAX_GIT_OUTPUT)}\n${hint}` : trimmed;
}
