import { z } from "zod";
import { preview } from "../../../shared/truncate.js";

const DESCRIPTION_CHARS = 200;

const repository = z.object({
  full_name: z.string(),
  html_url: z.string(),
  description: z.string().nullable(),
  stargazers_count: z.number(),
  language: z.string().nullable(),
  updated_at: z.string(),
  archived: z.boolean().optional(),
  fork: z.boolean().optional(),
});

const codeFile = z.object({
  path: z.string(),
  html_url: z.string(),
  repository: z.object({ full_name: z.string() }),
});

const issue = z.object({
  number: z.number(),
  title: z.string(),
  state: z.string(),
  html_url: z.string(),
  repository_url: z.string(),
  comments: z.number(),
  updated_at: z.string(),
  user: z.object({ login: z.string() }).nullable(),
  pull_request: z.object({}).passthrough().optional(),
});

const commit = z.object({
  sha: z.string(),
  html_url: z.string(),
  commit: z.object({
    message: z.string(),
    author: z.object({ name: z.string(), date: z.string() }).nullable(),
  }),
  repository: z.object({ full_name: z.string() }),
});

const user = z.object({ login: z.string(), type: z.string(), html_url: z.string() });

const page = <Item extends z.ZodType>(item: Item) =>
  z.object({ total_count: z.number(), incomplete_results: z.boolean(), items: z.array(item) });

const day = (timestamp: string) => timestamp.slice(0, 10);
const count = (value: number) => value.toLocaleString("en-US");

/** "octocat/Hello-World" from an issue's `repository_url` (https://api.github.com/repos/octocat/Hello-World). */
const repoOfIssue = (url: string) => url.replace(/^.*\/repos\//, "");

/** The search kinds of GitHub's REST API: the answer's item schema and how one item reads for the model. */
export const SEARCH_KINDS = {
  repositories: {
    schema: page(repository),
    describe: (item: z.output<typeof repository>) => {
      const facts = [`★ ${count(item.stargazers_count)}`, item.language, `updated ${day(item.updated_at)}`];
      if (item.archived) facts.push("archived");
      if (item.fork) facts.push("fork");
      const about = item.description?.trim() ? `\n   ${preview(item.description, DESCRIPTION_CHARS)}` : "";
      return `${item.full_name} · ${facts.filter(Boolean).join(" · ")}${about}\n   ${item.html_url}`;
    },
  },
  code: {
    schema: page(codeFile),
    describe: (item: z.output<typeof codeFile>) => `${item.repository.full_name}: ${item.path}\n   ${item.html_url}`,
  },
  issues: {
    schema: page(issue),
    describe: (item: z.output<typeof issue>) => {
      const kind = item.pull_request ? "pull request" : "issue";
      const by = item.user ? ` by ${item.user.login}` : "";
      const facts = `${kind} ${repoOfIssue(item.repository_url)}#${item.number}, ${item.state}${by}`;
      return (
        `${item.title} (${facts}) · ${item.comments} comments · updated ${day(item.updated_at)}\n` +
        `   ${item.html_url}`
      );
    },
  },
  commits: {
    schema: page(commit),
    describe: (item: z.output<typeof commit>) => {
      const subject = preview(item.commit.message.split("\n")[0] ?? "", DESCRIPTION_CHARS);
      const author = item.commit.author ? ` · ${item.commit.author.name}, ${day(item.commit.author.date)}` : "";
      return `${item.repository.full_name} ${item.sha.slice(0, 7)}: ${subject}${author}\n   ${item.html_url}`;
    },
  },
  users: {
    schema: page(user),
    describe: (item: z.output<typeof user>) => `${item.login} (${item.type}) ${item.html_url}`,
  },
} as const;

export type SearchKind = keyof typeof SEARCH_KINDS;

interface SearchPage {
  total_count: number;
  incomplete_results: boolean;
  items: unknown[];
}

/** Numbered results, with how many GitHub found in all; "nothing found" when the page is empty. */
export function formatSearchPage(kind: SearchKind, query: string, found: SearchPage): string {
  if (found.items.length === 0) return `GitHub found no ${kind} for "${query}".`;
  const describe = SEARCH_KINDS[kind].describe as (item: unknown) => string;
  const lines = found.items.map((item, index) => `${index + 1}. ${describe(item)}`);
  const heading = `GitHub ${kind} for "${query}" (${found.items.length} of ${count(found.total_count)}):`;
  const partial = found.incomplete_results ? "\n(GitHub's search stopped early: there may be more matches.)" : "";
  return `${heading}\n${lines.join("\n")}${partial}`;
}
