import { z } from "zod";
import { type ExternalService, http } from "../../../kit/http/index.js";
import { type NewsSource, parseDate } from "./news-query.js";

const GNEWS: ExternalService = { name: "GNews", envVar: "MARVIN_GNEWS_URL", defaultUrl: "https://gnews.io" };

const answer = z.object({
  totalArticles: z.number(),
  articles: z.array(
    z.object({
      title: z.string(),
      description: z.string().nullish(),
      url: z.string(),
      publishedAt: z.string().nullish(),
      source: z.object({ name: z.string().nullish() }).nullish(),
    }),
  ),
});

/** GNews' search endpoint (v4): up to 100 articles a request on paid plans, 10 on the free one. */
export const gnewsSource: NewsSource = {
  name: GNEWS.name,
  keyVariable: "GNEWS_API_KEY",
  enabled: (context) => Boolean(context.env.GNEWS_API_KEY?.trim()),
  async search(context, { query, limit, since }) {
    const data = await http(context).getJson(
      GNEWS,
      "/api/v4/search",
      {
        q: query,
        max: Math.min(limit, 100),
        sortby: "publishedAt",
        from: since?.toISOString(),
        apikey: context.env.GNEWS_API_KEY?.trim(),
      },
      answer,
    );
    return data.articles.map((article) => ({
      title: article.title,
      url: article.url,
      source: article.source?.name ?? "",
      published: parseDate(article.publishedAt),
      snippet: article.description ?? "",
      via: GNEWS.name,
    }));
  },
};
