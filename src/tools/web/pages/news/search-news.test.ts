import { describe, expect, test } from "../../../../../tests/support/fixtures.js";
import { type LocalHttpServers, sendJson, sendText } from "../../../../../tests/support/local-http-server.js";
import {
  DDG_NEWS_ANSWER,
  DDG_NEWS_EMPTY,
  DDG_VQD,
  duckDuckGoSearchShell,
  GNEWS_ANSWER,
  GNEWS_BAD_KEY,
  NEWSAPI_ANSWER,
  NEWSAPI_BAD_KEY,
} from "../../../../../tests/support/payloads/web.js";

const query = (url: string) => Object.fromEntries(new URL(url, "http://fixture").searchParams);

/** duckduckgo.com: the search page with its vqd token, and news.js answering `news`. */
function duckDuckGoNews(servers: LocalHttpServers, news: unknown = DDG_NEWS_ANSWER, vqd: string | null = DDG_VQD) {
  return servers.start((request, response) => {
    const { pathname, searchParams } = new URL(request.url, "http://fixture");
    if (pathname === "/")
      return sendText(response, duckDuckGoSearchShell(searchParams.get("q") ?? "", vqd ?? undefined));
    if (pathname === "/news.js" && searchParams.get("vqd") === DDG_VQD) return sendJson(response, news);
    return sendJson(response, { error: "invalid vqd" }, 403);
  });
}

describe("search_news", () => {
  test("merges DuckDuckGo, GNews and NewsAPI: each story once, newest first", async ({
    home,
    harnesses,
    httpServers,
  }) => {
    const ddg = await duckDuckGoNews(httpServers);
    const gnews = await httpServers.start((_request, response) => sendJson(response, GNEWS_ANSWER));
    const newsApi = await httpServers.start((_request, response) => sendJson(response, NEWSAPI_ANSWER));
    const env = {
      MARVIN_DDG_NEWS_URL: ddg.origin,
      MARVIN_GNEWS_URL: gnews.origin,
      MARVIN_NEWSAPI_URL: newsApi.origin,
      GNEWS_API_KEY: "gnews-key",
      NEWSAPI_KEY: "newsapi-key",
    };
    const harness = await harnesses.open({ home, env });
    const text = await harness.ok("search_news", { query: "electric trucks", max_results: 10, time_filter: "w" });
    expect(text).toBe(
      [
        'News for "electric trucks" (past week) from GNews, NewsAPI, DuckDuckGo News, newest first:',
        "1. Orders for electric heavy trucks doubled",
        "   Electrive, 2026-11-24 10:00 UTC — " +
          "https://www.electrive.com/2026/11/24/orders-electric-heavy-trucks-doubled/",
        "   Order books for battery-electric heavy trucks doubled in the third quarter.",
        "2. Volvo sets 1,000 km target for electric trucks",
        "   Reuters, 2026-11-24 07:02 UTC — " +
          "https://www.reuters.com/business/autos/volvo-electric-trucks-range-2026-11-24/",
        "   Volvo Trucks aims to double the range of its battery-electric models by 2028.",
        "3. Hydrogen trucks lose ground to batteries, study finds",
        "   The Guardian, 2026-11-23 18:45 UTC — " +
          "https://www.theguardian.com/environment/2026/nov/23/hydrogen-trucks-batteries-study",
        "4. Switzerland's first megawatt chargers open for trucks",
        "   Swissinfo, 2026-11-23 06:00 UTC — https://www.swissinfo.ch/eng/megawatt-chargers-trucks/88412345",
        "   Charging depots along the A1 motorway open to heavy goods vehicles & coaches.",
        "5. Tesla Semi deliveries slip again",
        "   The Verge, 2026-11-20 15:00 UTC — https://www.theverge.com/2026/11/20/tesla-semi-delay",
        "   The electric truck's volume production moves to late 2027.",
      ].join("\n"),
    );
    expect(query(ddg.requests[0]!.url)).toMatchObject({ q: "electric trucks" });
    expect(query(ddg.requests[1]!.url)).toMatchObject({ q: "electric trucks", o: "json", vqd: DDG_VQD, df: "w" });
    const asked = query(gnews.requests[0]!.url);
    expect(gnews.requests[0]!.url).toMatch(/^\/api\/v4\/search\?/);
    expect(asked).toMatchObject({ q: "electric trucks", max: "10", sortby: "publishedAt", apikey: "gnews-key" });
    expect(Date.now() - Date.parse(asked.from!)).toBeGreaterThan(6.9 * 24 * 3600_000);
    expect(newsApi.requests[0]!.url).toMatch(/^\/v2\/everything\?/);
    expect(newsApi.requests[0]!.headers["x-api-key"]).toBe("newsapi-key");
    expect(newsApi.requests[0]!.url).not.toContain("newsapi-key");
  });

  test("asks only DuckDuckGo when no key is set", async ({ home, harnesses, httpServers }) => {
    const ddg = await duckDuckGoNews(httpServers);
    const gnews = await httpServers.start((_request, response) => sendJson(response, GNEWS_ANSWER));
    const env = { MARVIN_DDG_NEWS_URL: ddg.origin, MARVIN_GNEWS_URL: gnews.origin };
    const harness = await harnesses.open({ home, env });
    const text = await harness.ok("search_news", { query: "electric trucks", max_results: 2 });
    expect(text.split("\n")[0]).toBe('News for "electric trucks" from DuckDuckGo News, newest first:');
    expect(text).toContain("2. Volvo sets 1,000 km target for electric trucks\n   Reuters, 2026-11-24 07:00 UTC");
    expect(text).not.toContain("3.");
    expect(gnews.requests).toHaveLength(0);
  });

  test("goes on when a source fails, naming it and its key", async ({ home, harnesses, httpServers }) => {
    const ddg = await duckDuckGoNews(httpServers);
    const gnews = await httpServers.start((_request, response) => sendJson(response, GNEWS_BAD_KEY, 401));
    const newsApi = await httpServers.start((_request, response) => sendJson(response, NEWSAPI_BAD_KEY, 401));
    const env = {
      MARVIN_DDG_NEWS_URL: ddg.origin,
      MARVIN_GNEWS_URL: gnews.origin,
      MARVIN_NEWSAPI_URL: newsApi.origin,
      GNEWS_API_KEY: "wrong",
      NEWSAPI_KEY: "wrong",
    };
    const harness = await harnesses.open({ home, env });
    const text = await harness.ok("search_news", { query: "electric trucks" });
    expect(text).toContain("1. Orders for electric heavy trucks doubled");
    expect(text).toContain("\n\nGNews failed (check GNEWS_API_KEY): GNews answered HTTP 401 (Unauthorized)");
    expect(text).toContain(
      'NewsAPI failed (check NEWSAPI_KEY): NewsAPI answered HTTP 401 (Unauthorized): "Your API key is invalid',
    );
  });

  test("fails, naming every source, when none answers", async ({ home, harnesses, httpServers }) => {
    const ddg = await duckDuckGoNews(httpServers, DDG_NEWS_ANSWER, null);
    const gnews = await httpServers.start((_request, response) => sendText(response, "<html>maintenance</html>"));
    const env = { MARVIN_DDG_NEWS_URL: ddg.origin, MARVIN_GNEWS_URL: gnews.origin, GNEWS_API_KEY: "k" };
    const harness = await harnesses.open({ home, env });
    const error = await harness.failure("search_news", { query: "electric trucks" });
    expect(error).toContain("No news source answered.");
    expect(error).toContain("GNews failed: GNews sent an answer Marvin does not understand: it sent a web page");
    expect(error).toContain("DuckDuckGo News failed: DuckDuckGo News sent its search page without the token (vqd)");
    expect(ddg.requests).toHaveLength(1);
  });

  test("says when no source has news on the topic", async ({ home, harnesses, httpServers }) => {
    const ddg = await duckDuckGoNews(httpServers, DDG_NEWS_EMPTY);
    const harness = await harnesses.open({ home, env: { MARVIN_DDG_NEWS_URL: ddg.origin } });
    expect(await harness.ok("search_news", { query: "xyzzy", time_filter: "d" })).toBe(
      'No news found for "xyzzy" (past day) (asked DuckDuckGo News).',
    );
  });

  test("refuses a news.js answer of the wrong shape, naming the service", async ({ home, harnesses, httpServers }) => {
    const ddg = await duckDuckGoNews(httpServers, { results: [{ title: 3 }] });
    const harness = await harnesses.open({ home, env: { MARVIN_DDG_NEWS_URL: ddg.origin } });
    expect(await harness.failure("search_news", { query: "trucks" })).toMatch(
      /DuckDuckGo News failed: DuckDuckGo News sent an answer Marvin does not understand: .*MARVIN_DDG_NEWS_URL=/,
    );
  });
});
