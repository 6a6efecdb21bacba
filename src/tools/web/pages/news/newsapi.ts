import { z } from "zod";
import { type ExternalService, http, ServiceError } from "../../../kit/http/index.js";
import { type NewsSource, parseDate } from "./news-query.js";

const NEWSAPI: ExternalService = { name: "NewsAPI", envVar: "MARVIN_NEWSAPI_URL", defaultUrl: "https://newsapi.org" };

const article = z.object({
  source: z.object({ id: z.string().nullish(), name: z.string().nullish() }),
  title: z.string().nullish(),
  description: z.string().nullish(),
  url: z.string().nullish(),
  publishedAt: z.string().nullish(),
});

const answer = z.union([
  z.object({ status: z.literal("ok"), totalResults: z.number(), articles: z.array(article) }),
  z.object({ status: z.literal("error"), code: z.string().optional(), message: z.string().optional() }),
]);

/** Articles taken down at the source stay listed with this title and address. */
const REMOVED = "[Removed]";

/** NewsAPI's /v2/everything; the key goes in its X-Api-Key header, never in the address. */
export const newsApiSource: NewsSource = {
  name: NEWSAPI.name,
  keyVariable: "NEWSAPI_KEY",
  enabled: (context) => Boolean(context.env.NEWSAPI_KEY?.trim()),
  async search(context, { query, limit, since }) {
    const data = await http(context).getJson(
      NEWSAPI,
      "/v2/everything",
      { q: query, sortBy: "publishedAt", pageSize: Math.min(limit, 100), from: since?.toISOString() },
      answer,
      { headers: { "x-api-key": context.env.NEWSAPI_KEY?.trim() ?? "" } },
    );
    if (data.status === "error") {
      const reason = data.message ?? data.code ?? "no reason given";
      throw new ServiceError(`NewsAPI refused the search: ${reason}`, { service: NEWSAPI.name, kind: "bad-answer" });
    }
    return data.articles.flatMap((item) => {
      if (!item.title || !item.url || item.title === REMOVED) return [];
      return [
        {
          title: item.title,
          url: item.url,
          source: item.source.name ?? "",
          published: parseDate(item.publishedAt),
          snippet: item.description ?? "",
          via: NEWSAPI.name,
        },
      ];
    });
  },
};
