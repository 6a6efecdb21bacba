import { z } from "zod";
import { errorMessage } from "../../../../shared/error-message.js";
import { defineTool, ToolError } from "../../../kit/define-tool.js";
import { resultLimit } from "../../../kit/lenient-parameters.js";
import { timeFilterLabel, timeFilterParameter, timeFilterStart } from "../time-filter.js";
import { duckDuckGoNewsSource } from "./duckduckgo-news.js";
import { gnewsSource } from "./gnews.js";
import { mergeNews, type NewsItem } from "./news-item.js";
import type { NewsQuery, NewsSource } from "./news-query.js";
import { newsApiSource } from "./newsapi.js";

/** In order of preference when two sources carry the same story. */
const SOURCES: readonly NewsSource[] = [gnewsSource, newsApiSource, duckDuckGoNewsSource];

function formatDate(date: Date | undefined): string {
  return date ? `${date.toISOString().slice(0, 16).replace("T", " ")} UTC` : "date unknown";
}

function formatItem(item: NewsItem, index: number): string {
  const source = item.source || item.via;
  const snippet = item.snippet ? `\n   ${item.snippet}` : "";
  return `${index + 1}. ${item.title}\n   ${source}, ${formatDate(item.published)} — ${item.url}${snippet}`;
}

function failureLine(source: NewsSource, error: unknown): string {
  const message = errorMessage(error);
  const key = source.keyVariable && /HTTP 40[13]/.test(message) ? ` (check ${source.keyVariable})` : "";
  return `${source.name} failed${key}: ${message}`;
}

export const searchNews = defineTool({
  name: "search_news",
  description:
    "Search recent news articles: DuckDuckGo News, plus GNews and NewsAPI when their keys are set; each story " +
    "once, newest first, with publication, date and address.",
  parameters: z.object({
    query: z.string().trim().min(1).describe("Topic or keywords"),
    max_results: resultLimit(50, 20),
    time_filter: timeFilterParameter,
  }),
  effect: "read",
  timeoutMs: 45_000,
  handler: async ({ query, max_results, time_filter }, context) => {
    const sources = SOURCES.filter((source) => source.enabled(context));
    const request: NewsQuery = {
      query,
      limit: max_results,
      timeFilter: time_filter,
      since: timeFilterStart(time_filter, new Date()),
    };
    const outcomes = await Promise.allSettled(sources.map((source) => source.search(context, request)));
    const answered: NewsItem[][] = [];
    const failures: string[] = [];
    outcomes.forEach((outcome, index) => {
      if (outcome.status === "fulfilled") answered.push(outcome.value);
      else failures.push(failureLine(sources[index]!, outcome.reason));
    });
    if (answered.length === 0) throw new ToolError(`No news source answered.\n${failures.join("\n")}`);
    const names = sources.filter((_, index) => outcomes[index]!.status === "fulfilled").map(({ name }) => name);
    const items = mergeNews(answered).slice(0, max_results);
    const when = timeFilterLabel(time_filter);
    const note = failures.length ? `\n\n${failures.join("\n")}` : "";
    if (items.length === 0) return `No news found for "${query}"${when} (asked ${names.join(", ")}).${note}`;
    const heading = `News for "${query}"${when} from ${names.join(", ")}, newest first:`;
    return `${heading}\n${items.map(formatItem).join("\n")}${note}`;
  },
});
