import { execFile } from "node:child_process";
import { toolChildEnv } from "../../../shared/child-env.js";
import type { ToolContext } from "../../kit/define-tool.js";

/** Where a token for the GitHub API came from, for messages. */
type TokenSource = "GH_TOKEN" | "GITHUB_TOKEN" | "gh auth token";

/** A login for the GitHub API, or why there is none. */
export type GitHubLogin = { token: string; source: TokenSource } | { token: undefined; missing: "gh" | "login" };

const GH_TIMEOUT_MS = 10_000;

/** The GitHub CLI and where to get it, for messages. */
export const GH_CLI = "the GitHub CLI `gh` (Debian/Ubuntu: `sudo apt install gh`; elsewhere https://cli.github.com)";

/** What to do when a login is needed and `login` says why there is none. */
export function loginAdvice(login: GitHubLogin): string {
  const how =
    login.token === undefined && login.missing === "gh"
      ? `${GH_CLI} is not installed: install it and run \`gh auth login\``
      : "run `gh auth login`";
  return `${how}, or set GH_TOKEN to a GitHub token`;
}

/**
 * The token `gh` holds for `host` (`gh auth token --hostname`), or why there is none. gh runs
 * without any secret in its environment: it reads its own login from its config (GH_CONFIG_DIR,
 * ~/.config/gh) or the system keyring.
 */
function ghToken(context: ToolContext, host: string): Promise<GitHubLogin> {
  const options = { env: toolChildEnv(context.env), timeout: GH_TIMEOUT_MS, signal: context.signal };
  return new Promise((resolve) => {
    execFile("gh", ["auth", "token", "--hostname", host], options, (error, stdout) => {
      const token = stdout.trim();
      if (!error && token) return resolve({ token, source: "gh auth token" });
      const missing = (error as NodeJS.ErrnoException | null)?.code === "ENOENT";
      resolve({ token: undefined, missing: missing ? "gh" : "login" });
    });
  });
}

/**
 * The login for the GitHub API at `host`: GH_TOKEN, then GITHUB_TOKEN (as gh itself reads them),
 * then the login of the GitHub CLI.
 */
export async function gitHubLogin(context: ToolContext, host: string): Promise<GitHubLogin> {
  for (const name of ["GH_TOKEN", "GITHUB_TOKEN"] as const) {
    const token = context.env[name]?.trim();
    if (token) return { token, source: name };
  }
  return ghToken(context, host);
}
