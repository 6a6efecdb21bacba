import { join } from "node:path";
import { ToolError } from "../../kit/define-tool.js";

/** A GitHub repository, as `owner/name`. */
export interface RepoName {
  owner: string;
  name: string;
}

/** GitHub's rules: owners are letters, digits and inner hyphens (39 at most); names add '.' and '_'. */
const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const NAME = /^[A-Za-z0-9._][A-Za-z0-9._-]{0,99}$/;

const EXAMPLE = "Give it as owner/name, e.g. 'torvalds/linux' or 'https://github.com/torvalds/linux'.";

/**
 * Reads "owner/name", "owner/name.git", "github.com/owner/name" or "https://github.com/owner/name".
 * Anything else is refused, so neither part can be a path (`..`) or look like an option (`--upload-pack=…`).
 */
export function parseRepoName(input: string): RepoName {
  const trimmed = input
    .trim()
    .replace(/^(?:https?:\/\/)?(?:www\.)?github\.com\//i, "")
    .replace(/\/+$/, "")
    .replace(/\.git$/i, "");
  const parts = trimmed.split("/");
  const [owner = "", name = ""] = parts;
  if (parts.length !== 2 || !OWNER.test(owner) || !NAME.test(name) || name === "." || name === "..") {
    throw new ToolError(`'${input}' is not a GitHub repository name. ${EXAMPLE}`);
  }
  return { owner, name };
}

export const fullName = (repo: RepoName) => `${repo.owner}/${repo.name}`;

/** Where a repository is cloned: `~/github-clones/<owner>/<name>` (seed 000 §2.8). */
export function cloneDir(home: string, repo: RepoName): string {
  return join(home, "github-clones", repo.owner, repo.name);
}
