import { lstat } from "node:fs/promises";
import { type ToolContext, ToolError } from "../../kit/define-tool.js";
import { topLevel } from "./clone-files.js";
import { GH_CLI } from "./gh-cli.js";
import { cloneDir, fullName, type RepoName } from "./repo-name.js";
import { runGit } from "./run-git.js";

const CLONE_SETTING = "MARVIN_GITHUB_CLONE_URL";
const DEFAULT_CLONE_URL = "https://github.com";
const CLONE_PROTOCOLS = new Set(["https:", "http:", "ssh:", "file:"]);

/** `<base>/<owner>/<name>.git`, the base from MARVIN_GITHUB_CLONE_URL (default https://github.com). */
function cloneUrl(context: ToolContext, repo: RepoName): string {
  const base = context.env[CLONE_SETTING]?.trim() || DEFAULT_CLONE_URL;
  let parsed: URL | undefined;
  try {
    parsed = new URL(base);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !CLONE_PROTOCOLS.has(parsed.protocol) || parsed.search || parsed.hash) {
    throw new ToolError(
      `${CLONE_SETTING} is not a usable address ('${base}'). Give an https, http, ssh or file URL without query, ` +
        `e.g. ${DEFAULT_CLONE_URL}, or unset it.`,
    );
  }
  return `${base.replace(/\/+$/, "")}/${repo.owner}/${repo.name}.git`;
}

const PROGRESS = /(Receiving objects|Resolving deltas|Updating files):\s+(\d+)%/g;

/** Turns git's `--progress` lines into progress reports for the person watching. */
function progressReporter(context: ToolContext, repo: RepoName): (chunk: string) => void {
  return (chunk) => {
    const matches = [...chunk.matchAll(PROGRESS)];
    const last = matches.at(-1);
    if (!last) return;
    const percent = Number(last[2]);
    context.onProgress({
      message: `Cloning ${fullName(repo)}: ${last[1]!.toLowerCase()} ${percent}%`,
      fraction: percent / 100,
    });
  };
}

const NOT_THERE =
  /not found|does not appear to be a git repository|could not read Username|Authentication failed|terminal prompts disabled|access denied|permission denied/i;

function cloneFailure(repo: RepoName, url: string, stderr: string): ToolError {
  const said = stderr.trim().split("\n").slice(-3).join(" ").slice(0, 600);
  if (NOT_THERE.test(stderr)) {
    return new ToolError(
      `Could not clone ${fullName(repo)} from ${url}: no such repository, or it is private (git said: ${said}). ` +
        "Check the name (github_search finds repositories). For a private repository the user must log in with " +
        `${GH_CLI}: \`gh auth login\`, then \`gh auth setup-git\`.`,
    );
  }
  return new ToolError(
    `Could not clone ${fullName(repo)} from ${url}: ${said || "git failed"}. Try again in a minute.`,
  );
}

async function git(context: ToolContext, dir: string, args: string[]): Promise<string> {
  const result = await runGit(context, args, { cwd: dir });
  return result.code === 0 ? result.stdout.trim() : "";
}

/** What the model needs to go on: latest commit, number of files, the top level. */
async function describeClone(context: ToolContext, repo: RepoName, dir: string): Promise<string> {
  const latest = await git(context, dir, ["log", "-1", "--format=%h %cs %s"]);
  const files = (await git(context, dir, ["ls-files", "-z"])).split("\0").filter(Boolean).length;
  return [
    `Latest commit: ${latest || "(none)"}`,
    `Files: ${files}`,
    `Top level:\n${await topLevel(dir)}`,
    `Read files with github_read_file and search them with github_grep (repo "${fullName(repo)}").`,
  ].join("\n");
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

/** Brings an existing clone up to date (fast-forward only); its files are never thrown away. */
async function update(context: ToolContext, repo: RepoName, dir: string): Promise<string> {
  const pulled = await runGit(context, ["pull", "--ff-only"], { cwd: dir });
  const status =
    pulled.code === 0
      ? `${fullName(repo)} was already cloned at ${dir}; updated it (${pulled.stdout.trim().split("\n")[0] || "done"}).`
      : `${fullName(repo)} was already cloned at ${dir}; updating it failed, so the copy there is as it was ` +
        `(git said: ${pulled.stderr.trim().split("\n").slice(-2).join(" ").slice(0, 400)}).`;
  return `${status}\n${await describeClone(context, repo, dir)}`;
}

/** Clones `repo` to ~/github-clones/<owner>/<name>, or updates the clone already there. */
export async function cloneRepository(context: ToolContext, repo: RepoName, shallow: boolean): Promise<string> {
  const dir = cloneDir(context.home, repo);
  if (await exists(`${dir}/.git`)) return update(context, repo, dir);
  if (await exists(dir)) {
    throw new ToolError(
      `${dir} already exists and is not a git clone; Marvin does not overwrite it. Ask the user to move it away.`,
    );
  }
  const url = cloneUrl(context, repo);
  const args = ["clone", "--progress", "--no-recurse-submodules", ...(shallow ? ["--depth", "1"] : []), "--", url, dir];
  const result = await runGit(context, args, { onStderr: progressReporter(context, repo) });
  if (result.code !== 0) throw cloneFailure(repo, url, result.stderr);
  const depth = shallow ? " (shallow: the latest commit only)" : " (full history)";
  return `Cloned ${fullName(repo)} to ${dir}${depth}.\n${await describeClone(context, repo, dir)}`;
}
