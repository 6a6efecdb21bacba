import { z } from "zod";
import { defineTool } from "../../kit/define-tool.js";
import { searchDuckDuckGo, type WebResult } from "../../kit/duckduckgo/index.js";
import { resultLimit } from "../../kit/lenient-parameters.js";
import { timeFilterLabel, timeFilterParameter } from "./time-filter.js";

function formatResult(result: WebResult, index: number): string {
  const snippet = result.snippet ? `\n   ${result.snippet}` : "";
  return `${index + 1}. ${result.title}\n   ${result.url}${snippet}`;
}

export const webSearch = defineTool({
  name: "web_search",
  description:
    "Search the web (DuckDuckGo): title, address and snippet of each page found. Read a page with browse_web.",
  parameters: z.object({
    query: z.string().trim().min(1).describe("What to search for"),
    max_results: resultLimit(20, 5),
    time_filter: timeFilterParameter,
  }),
  effect: "read",
  timeoutMs: 40_000,
  handler: async ({ query, max_results, time_filter }, context) => {
    const results = await searchDuckDuckGo(context, query, { limit: max_results, timeFilter: time_filter });
    const when = timeFilterLabel(time_filter);
    if (results.length === 0) return `DuckDuckGo found nothing for "${query}"${when}. Try other or fewer words.`;
    return `Web results for "${query}"${when}:\n${results.map(formatResult).join("\n")}`;
  },
});
