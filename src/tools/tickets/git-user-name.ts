import { toolChildEnv } from "../../shared/child-env.js";
import { withDeadline } from "../../shared/deadline.js";
import type { Env } from "../../shared/env.js";
import { runGitProcess } from "../../workspace/git-process.js";
import { GIT_LOOK_ARGS } from "../kit/git-safety.js";

/** The longest tk waits for git to name the user. */
const TIMEOUT_MS = 3000;

/**
 * `git config user.name` as seen from `cwd`: tk's default assignee. Undefined when git is
 * missing, unconfigured or slow. Repository-redirecting variables (GIT_DIR…) are dropped so a
 * parent repository's settings never leak in (seed 004 §6.8), and so are credentials.
 */
export async function gitUserName(cwd: string, env: Env, signal: AbortSignal): Promise<string | undefined> {
  const deadline = withDeadline(signal, TIMEOUT_MS);
  const run = await runGitProcess(["config", "user.name"], {
    before: GIT_LOOK_ARGS,
    cwd,
    env: toolChildEnv(env),
    signal: deadline.signal,
  })
    .catch(() => undefined)
    .finally(deadline.clear);
  return (run?.code === 0 && run.stdout.trim()) || undefined;
}
