import { z } from "zod";
import { inlineText } from "../../../kit/html/index.js";
import { type ExternalService, http, ServiceError } from "../../../kit/http/index.js";
import type { NewsSource } from "./news-query.js";

/** duckduckgo.com itself: its search page hands out the `vqd` token that news.js requires. */
const DUCKDUCKGO_NEWS: ExternalService = {
  name: "DuckDuckGo News",
  envVar: "MARVIN_DDG_NEWS_URL",
  defaultUrl: "https://duckduckgo.com",
};

const answer = z.object({
  results: z.array(
    z.object({
      /** Unix seconds. */
      date: z.number().nullish(),
      excerpt: z.string().nullish(),
      source: z.string().nullish(),
      title: z.string(),
      url: z.string(),
    }),
  ),
});

/** The token appears as vqd="4-…", vqd='4-…' or vqd=4-…& depending on the page's age. */
const VQD_PATTERNS = [/vqd\s*=\s*"([^"]+)"/, /vqd\s*=\s*'([^']+)'/, /[?&]vqd=([\w-]+)/];

function vqdOf(page: string): string | undefined {
  for (const pattern of VQD_PATTERNS) {
    const token = pattern.exec(page)?.[1];
    if (token) return token;
  }
  return undefined;
}

/** DuckDuckGo's own news search: no key, so it is always asked. */
export const duckDuckGoNewsSource: NewsSource = {
  name: DUCKDUCKGO_NEWS.name,
  enabled: () => true,
  async search(context, { query, timeFilter }) {
    const client = http(context);
    const page = await client.getText(DUCKDUCKGO_NEWS, "/", { q: query, iar: "news", ia: "news" });
    const vqd = vqdOf(page);
    if (!vqd) {
      throw new ServiceError(
        "DuckDuckGo News sent its search page without the token (vqd) its news search needs; it may be " +
          "limiting this address. Wait a minute and try again.",
        { service: DUCKDUCKGO_NEWS.name, kind: "bad-answer" },
      );
    }
    const parameters = { q: query, o: "json", l: "wt-wt", noamp: 1, p: -1, vqd, df: timeFilter };
    const headers = { referer: "https://duckduckgo.com/" };
    const data = await client.getJson(DUCKDUCKGO_NEWS, "/news.js", parameters, answer, { headers });
    const items = [];
    for (const result of data.results) {
      items.push({
        title: await inlineText(result.title),
        url: result.url,
        source: result.source ?? "",
        published: typeof result.date === "number" ? new Date(result.date * 1000) : undefined,
        snippet: result.excerpt ? await inlineText(result.excerpt) : "",
        via: DUCKDUCKGO_NEWS.name,
      });
    }
    return items;
  },
};
