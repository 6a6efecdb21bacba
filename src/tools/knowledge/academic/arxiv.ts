import type { AtomFeed } from "feedsmith";
import type { ToolContext } from "../../kit/define-tool.js";
import { type ExternalService, http, type RequestOptions, ServiceError, serviceBaseUrl } from "../../kit/http/index.js";

const ARXIV: ExternalService = {
  name: "arXiv",
  envVar: "MARVIN_ARXIV_URL",
  defaultUrl: "https://export.arxiv.org",
};

export const ARXIV_SORTS = ["relevance", "lastUpdatedDate", "submittedDate"] as const;
type ArxivSort = (typeof ARXIV_SORTS)[number];

export interface Preprint {
  title: string;
  authors: string[];
  published: string | undefined;
  abstract: string;
  category: string | undefined;
  url: string | undefined;
  pdf: string | undefined;
}

/** Field prefixes and boolean operators of arXiv's query syntax: such a query is passed on as written. */
const QUERY_SYNTAX = /\b(ti|au|abs|co|jr|cat|rn|id|all):|\b(AND|OR|ANDNOT)\b/;

/** Plain words become `all:word AND all:word…`, so every word must occur somewhere in the record. */
function arxivQuery(query: string): string {
  if (QUERY_SYNTAX.test(query)) return query.trim();
  return query
    .trim()
    .split(/\s+/)
    .map((word) => `all:${word}`)
    .join(" AND ");
}

/** Atom text and arXiv's wrapped titles and abstracts: one line, single spaces. */
const oneLine = (text: string | undefined) => (text ?? "").replace(/\s+/g, " ").trim();

function readEntry(entry: AtomFeed.Entry<string>): Preprint {
  const links = entry.links ?? [];
  return {
    title: oneLine(entry.title?.value),
    authors: (entry.authors ?? []).map((author) => oneLine(author.name)).filter(Boolean),
    published: entry.published?.slice(0, 10),
    abstract: oneLine(entry.summary?.value),
    category: entry.arxiv?.primaryCategory?.term ?? entry.categories?.[0]?.term,
    url: links.find((link) => link.rel === "alternate")?.href ?? entry.id,
    pdf: links.find((link) => link.title === "pdf" || link.type === "application/pdf")?.href,
  };
}

function notAFeed(base: string): ServiceError {
  const message =
    "arXiv sent an answer Marvin does not understand: it is not an Atom feed. " +
    `Check that MARVIN_ARXIV_URL=${base} points at arXiv.`;
  return new ServiceError(message, { service: "arXiv", kind: "bad-answer" });
}

/** arXiv reports a bad query as a feed whose only entry is titled "Error", with its id under /api/errors. */
function refusal(entries: AtomFeed.Entry<string>[]): ServiceError | undefined {
  const error = entries.find((entry) => entry.id?.includes("/api/errors") && oneLine(entry.title?.value) === "Error");
  if (!error) return undefined;
  const message = `arXiv refused the query: ${oneLine(error.summary?.value)}. Check the query syntax.`;
  return new ServiceError(message, { service: "arXiv", kind: "bad-answer" });
}

/** Preprints matching `query`, newest or most relevant first, with arXiv's total count. */
export async function searchArxiv(
  context: Pick<ToolContext, "env" | "signal">,
  query: string,
  limit: number,
  sort: ArxivSort,
  request?: RequestOptions,
): Promise<{ total: number; preprints: Preprint[] }> {
  const parameters = {
    search_query: arxivQuery(query),
    start: 0,
    max_results: limit,
    sortBy: sort,
    sortOrder: "descending",
  };
  const options = { ...request, headers: { accept: "application/atom+xml", ...request?.headers } };
  const xml = await http(context).getText(ARXIV, "/api/query", parameters, options);
  const { parseAtomFeed } = await import("feedsmith");
  let feed: AtomFeed.Feed<string>;
  try {
    feed = parseAtomFeed(xml);
  } catch {
    throw notAFeed(serviceBaseUrl(context.env, ARXIV));
  }
  const entries = feed.entries ?? [];
  const refused = refusal(entries);
  if (refused) throw refused;
  return { total: feed.opensearch?.totalResults ?? entries.length, preprints: entries.map(readEntry) };
}
