import { lstat, realpath, stat } from "node:fs/promises";
import { relative, sep } from "node:path";
import { formatGrepResult, type GrepQuery } from "../../../workspace/grep/format.js";
import { globFilters } from "../../../workspace/grep/glob.js";
import { searchTree } from "../../../workspace/grep/search-tree.js";
import { readRegularFile } from "../../../workspace/regular-file.js";
import { resolveInside, treeListing } from "../../../workspace/sandbox.js";
import { type ToolContext, ToolError } from "../../kit/define-tool.js";
import { cloneDir, fullName, type RepoName } from "./repo-name.js";

/** Most lines, and characters, one github_read_file call returns. */
const MAX_LINES = 500;
const MAX_CHARS = 50_000;
const BINARY_SNIFF_BYTES = 8_000;

/** The top level of a clone for the model, without git's own `.git/`. */
export async function topLevel(dir: string): Promise<string> {
  const listing = await treeListing(dir, 1);
  return listing
    .split("\n")
    .filter((line) => line !== ".git/")
    .join("\n");
}

/** The real path of the clone of `repo`; a ToolError saying to clone it first when there is none. */
async function cloneRoot(context: ToolContext, repo: RepoName): Promise<string> {
  const dir = cloneDir(context.home, repo);
  const cloned = await lstat(`${dir}/.git`).then(
    () => true,
    () => false,
  );
  if (!cloned)
    throw new ToolError(`${fullName(repo)} is not cloned yet; call github_clone with repo "${fullName(repo)}" first.`);
  return realpath(dir);
}

/** Lines `start`..`end` (1-based; 0 = from the first / to the last), numbered, capped at MAX_LINES and MAX_CHARS. */
function numberedLines(shown: string, text: string, start: number, end: number): string {
  const lines = text.split(/\r?\n/);
  if (text.endsWith("\n")) lines.pop();
  const total = lines.length;
  if (total === 0) return `${shown} is empty.`;
  const first = Math.max(1, start || 1);
  if (first > total) throw new ToolError(`start ${first} is past the end of ${shown}, which has ${total} lines.`);
  const wanted = Math.min(total, end > 0 ? end : total);
  if (wanted < first)
    throw new ToolError(
      `end (${end}) is before start (${first}); give a range like start ${first}, end ${first + 99}.`,
    );
  const out: string[] = [];
  let characters = 0;
  let last = first - 1;
  for (let number = first; number <= Math.min(wanted, first + MAX_LINES - 1); number++) {
    const line = `${number}. ${lines[number - 1]}`;
    if (characters + line.length > MAX_CHARS && out.length > 0) break;
    out.push(line);
    characters += line.length + 1;
    last = number;
  }
  const cut = last < wanted ? ` Read on with start=${last + 1}.` : "";
  const note = first > 1 || last < total ? `\n\n[Lines ${first}-${last} of ${total}.${cut}]` : "";
  return `${shown}\n${out.join("\n")}${note}`;
}

/** A file of a clone, as numbered lines; a directory as a listing. Nothing outside the clone is read. */
export async function readCloneFile(
  context: ToolContext,
  repo: RepoName,
  path: string,
  range: { start: number; end: number },
): Promise<string> {
  const root = await cloneRoot(context, repo);
  const real = await resolveInside(root, path, { label: `Clone of ${fullName(repo)}` });
  const shown = `${fullName(repo)}/${relative(root, real).split(sep).join("/")}`;
  const stats = await stat(real).catch(() => undefined);
  if (!stats) {
    throw new ToolError(`${path} does not exist in ${fullName(repo)}. Top level:\n${await topLevel(root)}`);
  }
  if (stats.isDirectory()) return `${shown}/ holds:\n${await treeListing(real)}`;
  const bytes = await readRegularFile(real, path);
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
    return `${shown} looks like a binary file (${bytes.length} bytes); it is not shown.`;
  }
  return numberedLines(shown, bytes.toString("utf8"), range.start, range.end);
}

/** A regex search of the clone's files (ripgrep syntax), grouped by file, `max_results` matching lines at most. */
export async function grepClone(
  context: ToolContext,
  repo: RepoName,
  request: { pattern: string; globFilter: string; maxResults: number },
): Promise<string> {
  const root = await cloneRoot(context, repo);
  const query: GrepQuery = {
    pattern: request.pattern,
    globs: globFilters(request.globFilter),
    contextLines: 0,
    maxResults: request.maxResults,
    ignoreCase: false,
    searchPath: ".",
  };
  const result = await searchTree(root, query, { env: context.env, signal: context.signal });
  return formatGrepResult(result, query, {
    rootName: `the clone of ${fullName(repo)}`,
    narrowing: "Narrow the pattern, pass glob_filter, or raise max_results.",
  });
}
