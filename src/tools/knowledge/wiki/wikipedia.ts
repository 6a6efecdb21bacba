import { z } from "zod";
import type { ToolContext } from "../../kit/define-tool.js";
import { inlineText } from "../../kit/html/index.js";
import { type ExternalService, http, type RequestOptions, ServiceError, serviceBaseUrl } from "../../kit/http/index.js";

type Caller = Pick<ToolContext, "env" | "signal">;

/** A Wikipedia language edition: "en", "de", "simple", "zh-yue"… */
export const LANGUAGE = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z]{2,3}(-[a-z]{2,8})*$|^simple$/, "a Wikipedia language code such as en, de or fr")
  .default("en")
  .describe("Wikipedia language code, e.g. en, de, fr (default en)");

/** The site of one language edition; MARVIN_WIKIPEDIA_URL, when set, replaces it for every language. */
function wikipedia(language: string): ExternalService {
  return { name: "Wikipedia", envVar: "MARVIN_WIKIPEDIA_URL", defaultUrl: `https://${language}.wikipedia.org` };
}

/** "Albert Einstein" → "Albert_Einstein", as Wikipedia writes titles in its URLs. */
const urlTitle = (title: string) => title.trim().replace(/ /g, "_");

function articleUrl(context: Caller, language: string, title: string): string {
  return `${serviceBaseUrl(context.env, wikipedia(language))}/wiki/${encodeURIComponent(urlTitle(title))}`;
}

/** MediaWiki reports a refused query inside an HTTP 200 answer: `{"error": {"code", "info"}}`. */
const apiError = z.object({ code: z.string(), info: z.string() }).optional();

function refused(error: { code: string; info: string }): ServiceError {
  const message = `Wikipedia refused the request: ${error.info} (${error.code}). Rephrase the query or title.`;
  return new ServiceError(message, { service: "Wikipedia", kind: "bad-answer" });
}

const searchAnswer = z.object({
  error: apiError,
  query: z
    .object({
      searchinfo: z.object({ totalhits: z.number(), suggestion: z.string().optional() }).optional(),
      search: z.array(
        z.object({
          title: z.string(),
          snippet: z.string(),
          wordcount: z.number().optional(),
          timestamp: z.string().optional(),
        }),
      ),
    })
    .optional(),
});

export interface FoundArticle {
  title: string;
  /** Plain text; Wikipedia marks the matched words with `<span class="searchmatch">`. */
  snippet: string;
  words: number | undefined;
  url: string;
}

interface SearchOutcome {
  total: number;
  suggestion: string | undefined;
  articles: FoundArticle[];
}

/** Full-text search (`list=search`), best match first. */
export async function searchArticles(
  context: Caller,
  language: string,
  query: string,
  limit: number,
  request?: RequestOptions,
): Promise<SearchOutcome> {
  const parameters = {
    action: "query",
    list: "search",
    srsearch: query,
    srlimit: limit,
    srprop: "snippet|wordcount|timestamp",
    format: "json",
    formatversion: 2,
    utf8: 1,
  };
  const answer = await http(context).getJson(wikipedia(language), "/w/api.php", parameters, searchAnswer, request);
  if (answer.error) throw refused(answer.error);
  const hits = answer.query?.search ?? [];
  const articles: FoundArticle[] = [];
  for (const hit of hits) {
    articles.push({
      title: hit.title,
      snippet: await inlineText(hit.snippet),
      words: hit.wordcount,
      url: articleUrl(context, language, hit.title),
    });
  }
  const info = answer.query?.searchinfo;
  return { total: info?.totalhits ?? articles.length, suggestion: info?.suggestion, articles };
}

const summaryAnswer = z.object({
  type: z.string(),
  title: z.string(),
  description: z.string().optional(),
  extract: z.string(),
  content_urls: z.object({ desktop: z.object({ page: z.string() }) }).optional(),
});

export interface Summary {
  title: string;
  description: string | undefined;
  extract: string;
  url: string;
  isDisambiguation: boolean;
}

/** The lead section of an article (REST `page/summary`), or undefined when there is no such article. */
export async function fetchSummary(
  context: Caller,
  language: string,
  title: string,
  request?: RequestOptions,
): Promise<Summary | undefined> {
  const path = `/api/rest_v1/page/summary/${encodeURIComponent(urlTitle(title))}`;
  let answer: z.output<typeof summaryAnswer>;
  try {
    answer = await http(context).getJson(wikipedia(language), path, undefined, summaryAnswer, request);
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) return undefined;
    throw error;
  }
  return {
    title: answer.title,
    description: answer.description,
    extract: answer.extract.trim(),
    url: answer.content_urls?.desktop.page ?? articleUrl(context, language, answer.title),
    isDisambiguation: answer.type === "disambiguation",
  };
}

const extractAnswer = z.object({
  error: apiError,
  query: z.object({
    pages: z.array(
      z.object({
        title: z.string(),
        missing: z.boolean().optional(),
        invalid: z.boolean().optional(),
        extract: z.string().optional(),
      }),
    ),
  }),
});

export interface Article {
  /** The title after redirects and normalisation ("albert einstein" → "Albert Einstein"). */
  title: string;
  /** Plain text with `== Section ==` headings. */
  text: string;
  url: string;
}

/** The whole article as plain text (`prop=extracts`), following redirects; undefined when it does not exist. */
export async function fetchArticle(
  context: Caller,
  language: string,
  title: string,
  request?: RequestOptions,
): Promise<Article | undefined> {
  const parameters = {
    action: "query",
    prop: "extracts",
    explaintext: 1,
    exsectionformat: "wiki",
    redirects: 1,
    titles: title.trim(),
    format: "json",
    formatversion: 2,
  };
  const options = { maxBytes: 20 * 1024 * 1024, ...request };
  const answer = await http(context).getJson(wikipedia(language), "/w/api.php", parameters, extractAnswer, options);
  if (answer.error) throw refused(answer.error);
  const page = answer.query.pages[0];
  if (!page || page.missing || page.invalid || page.extract === undefined) return undefined;
  return { title: page.title, text: page.extract, url: articleUrl(context, language, page.title) };
}
