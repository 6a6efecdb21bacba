import { spawn } from "node:child_process";
import { childEnvWith } from "../../shared/child-env.js";
import { type ToolContext, ToolError } from "../define-tool.js";
import { GIT_LOOK_ARGS } from "../git-safety.js";

interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

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
): Promise<GitResult> {
  // A clone of a stranger's repository must not get anything run by cloning or reading it.
  const argv = [...GIT_LOOK_ARGS, ...args];
  return new Promise((resolve, reject) => {
    const child = spawn("git", argv, {
      cwd: options.cwd,
      env: gitEnv(context),
      stdio: ["ignore", "pipe", "pipe"],
      signal: context.signal,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      options.onStderr?.(chunk);
    });
    child.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") {
        reject(
          new ToolError("git is not installed (Debian/Ubuntu: `sudo apt install git`); install it, then try again."),
        );
      } else if (error.name === "AbortError") reject(new ToolError(`git ${args[0]} was cancelled.`));
      else reject(new ToolError(`git ${args[0]} could not run: ${error.message}`));
    });
    child.on("close", (code) => {
      if (code === null) {
        const what = context.signal.aborted ? "was cancelled" : "was killed before it finished";
        return reject(new ToolError(`git ${args[0]} ${what}.`));
      }
      resolve({ code, stdout, stderr });
    });
  });
}
