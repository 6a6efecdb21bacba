import { execFile } from "node:child_process";
import { toolChildEnv } from "../../shared/child-env.js";
import type { Env } from "../../shared/env.js";
import { GIT_LOOK_ARGS } from "../git-safety.js";

/**
 * `git config user.name` as seen from `cwd`: tk's default assignee. Undefined when git is
 * missing, unconfigured or slow. Repository-redirecting variables (GIT_DIR…) are dropped so a
 * parent repository's settings never leak in (seed 004 §6.8), and so are credentials.
 */
export function gitUserName(cwd: string, env: Env, signal: AbortSignal): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(
      "git",
      [...GIT_LOOK_ARGS, "config", "user.name"],
      { cwd, env: toolChildEnv(env), timeout: 3000, signal },
      (error, stdout) => {
        const name = error ? "" : stdout.trim();
        resolve(name || undefined);
      },
    );
  });
}
