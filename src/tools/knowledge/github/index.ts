import { z } from "zod";
import { defineTool } from "../../kit/define-tool.js";
import { resultLimit } from "../../kit/lenient-parameters.js";
import { cloneRepository } from "./clone.js";
import { grepClone, readCloneFile } from "./clone-files.js";
import { parseRepoName } from "./repo-name.js";
import { searchGitHub } from "./search.js";

const repoParameter = z.string().min(1).describe("owner/name, e.g. 'sharkdp/bat'");

const CLONE_TIMEOUT_MS = 10 * 60_000;

export const githubTools = [
  defineTool({
    name: "github_search",
    effect: "read",
    description:
      "Search GitHub: repositories, code, issues (and pull requests), commits or users. GitHub's search syntax " +
      "works, e.g. 'language:rust stars:>1000 tui' or 'repo:owner/name addClass'. Code search needs a GitHub login.",
    parameters: z.object({
      query: z.string().min(1),
      search_type: z.enum(["repositories", "code", "issues", "commits", "users"]).default("repositories"),
      max_results: resultLimit(100, 10),
    }),
    timeoutMs: 30_000,
    handler: ({ query, search_type: kind, max_results: maxResults }, context) =>
      searchGitHub(context, kind, query, maxResults),
  }),
  defineTool({
    name: "github_clone",
    effect: "write",
    description:
      "Clone a GitHub repository to ~/github-clones/<owner>/<name> (latest commit only unless shallow is false), " +
      "or update the clone already there. Then read it with github_read_file and github_grep.",
    parameters: z.object({
      repo: repoParameter,
      shallow: z.boolean().default(true).describe("Only the latest commit (faster); false for the full history"),
    }),
    timeoutMs: CLONE_TIMEOUT_MS,
    handler: ({ repo, shallow }, context) => cloneRepository(context, parseRepoName(repo), shallow),
  }),
  defineTool({
    name: "github_read_file",
    effect: "read",
    description:
      "Read a file of a repository cloned with github_clone, as numbered lines (a directory gives a listing). " +
      "start/end are 1-based line numbers; 0 means from the first / to the last line.",
    parameters: z.object({
      repo: repoParameter,
      path: z.string().describe("Path inside the repository, e.g. 'src/main.rs'"),
      start: z.number().int().min(0).default(0),
      end: z.number().int().min(0).default(0),
    }),
    handler: ({ repo, path, start, end }, context) => readCloneFile(context, parseRepoName(repo), path, { start, end }),
  }),
  defineTool({
    name: "github_grep",
    effect: "read",
    description:
      "Regex search (ripgrep syntax) of a repository cloned with github_clone: matching lines by file, sorted by path.",
    parameters: z.object({
      repo: repoParameter,
      pattern: z.string().min(1).describe("e.g. 'fn main' or 'TODO|FIXME'"),
      glob_filter: z.string().default("").describe("Only matching files, e.g. '*.rs' or 'src/**/*.{ts,tsx}'"),
      max_results: resultLimit(500, 30),
    }),
    handler: ({ repo, pattern, glob_filter: globFilter, max_results: maxResults }, context) =>
      grepClone(context, parseRepoName(repo), { pattern, globFilter, maxResults }),
  }),
];
