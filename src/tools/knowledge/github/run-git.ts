import { childEnvWith } from "../../../shared/child-env.js";
import { type GitRun, runGitProcess } from "../../../workspace/git-process.js";
import type { ToolContext } from "../../kit/define-tool.js";
import { GIT_LOOK_ARGS } from "../../kit/git-safety.js";

/**
 * git's environment: no secret but the GitHub tokens, which a credential helper of the user's own
 * git config (`gh auth setup-git`) may need for a private repository; never a prompt, which would
 * wait for an answer nobody can give.
 */
function gitEnv(context: ToolContext): NodeJS.ProcessEnv {
  return {
    ...childEnvWith(context.env, ["GH_TOKEN", "GITHUB_TOKEN"]),
    GIT_TERMINAL_PROMPT: "0",
    GIT_ASKPASS: "",
    GCM_INTERACTIVE: "never",
  };
}

/** Runs git; a non-zero exit is returned, a missing git or a cancel is thrown. `onStderr` sees output as it comes. */
export function runGit(
  context: ToolContext,
  args: string[],
  options: { cwd?: string; onStderr?: (chunk: string) => void } = {},
): Promise<GitRun> {
  // A clone of a stranger's repository must not get anything run by cloning or reading it.
  return runGitProcess(args, { ...options, before: GIT_LOOK_ARGS, env: gitEnv(context), signal: context.signal });
}
