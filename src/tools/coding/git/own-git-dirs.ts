import { lstat, readFile, realpath } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { GitRun } from "../../../workspace/git-process.js";
import { ToolError } from "../../kit/define-tool.js";

/** The real path of `path`, undefined when it cannot be resolved. */
const real = (path: string) => realpath(path).catch(() => undefined);

/** A linked worktree: its git folder is `<common>/worktrees/<name>`, whose `gitdir` names this `.git` file. */
async function isLinkedWorktree(dotGit: string, gitDir: string, commonDir: string): Promise<boolean> {
  if (gitDir !== join(commonDir, "worktrees", basename(gitDir))) return false;
  const named = await readFile(join(gitDir, "gitdir"), "utf8").catch(() => "");
  return named.trim() !== "" && (await real(named.trim())) === (await real(dotGit));
}

/** A submodule: its git folder is its own common folder, in `<superproject>/.git/modules/`. */
async function isSubmodule(workTree: string, gitDir: string, commonDir: string): Promise<boolean> {
  if (gitDir !== commonDir) return false;
  for (let dir = dirname(workTree); dir !== dirname(dir); dir = dirname(dir)) {
    const modules = await real(join(dir, ".git", "modules"));
    if (modules && gitDir.startsWith(`${modules}/`)) return true;
  }
  return false;
}

/**
 * Refuses a repository whose git folders are not its own: `.git` in `workTree` must be the git
 * folder and its own common folder, or, as a `.git` file, a linked worktree's or a submodule's. A
 * command can write `.git/commondir` (or a `.git` file) pointing at a folder of its own, with hooks
 * and config that Marvin's git would run outside the sandbox. `located` is git's answer to
 * `rev-parse --absolute-git-dir --git-common-dir` with absolute paths.
 */
export async function requireOwnGitDirs(workTree: string, located: GitRun): Promise<void> {
  if (located.code !== 0) return; // not a repository: the git call itself says so
  const [gitDir, commonDir] = await Promise.all(located.stdout.trim().split("\n").map(real));
  const dotGit = join(workTree, ".git");
  const kind = await lstat(dotGit).catch(() => undefined);
  let own = false;
  if (gitDir && commonDir && kind?.isDirectory()) own = gitDir === (await real(dotGit)) && commonDir === gitDir;
  else if (gitDir && commonDir && kind?.isFile())
    own = (await isLinkedWorktree(dotGit, gitDir, commonDir)) || (await isSubmodule(workTree, gitDir, commonDir));
  if (own) return;
  throw new ToolError(
    `Not running git here: the repository in ${workTree} uses git folders that are not its own (git folder ` +
      `${gitDir ?? "unknown"}, common folder ${commonDir ?? "unknown"}), so git could run hooks and config from ` +
      "anywhere. A command may have written .git/commondir or a .git file. Tell the user; they can check " +
      "with `git rev-parse --git-dir --git-common-dir` and remove what does not belong.",
  );
}
