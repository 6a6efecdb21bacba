import { describe, expect } from "../../../../tests/support/fixtures.js";
import { type LocalHttpServer, sendJson, sendText } from "../../../../tests/support/local-http-server.js";
import { DUCKDUCKGO_NO_RESULTS_PAGE } from "../../../../tests/support/payloads/duckduckgo.js";
import {
  DUCKDUCKGO_IMDB_BLADE_RUNNER,
  OMDB_BLACK_LOTUS,
  OMDB_BLADE_RUNNER,
  OMDB_INCORRECT_ID,
  OMDB_INVALID_KEY,
  OMDB_MOVIE_NOT_FOUND,
  OMDB_SEARCH_BLADE_RUNNER,
  OMDB_TOO_MANY_RESULTS,
} from "../../../../tests/support/payloads/media.js";
import { type Answer, test as serviceTest, urlOf } from "../../../../tests/support/service-fixtures.js";
import type { ToolHarness } from "../../../../tests/support/tool-harness.js";
import { callWithTimeLimit } from "../../../../tests/support/tool-time-limit.js";
import { movieTools } from "./movies.js";

interface MovieFixtures {
  /** A session with an OMDb key whose OMDb is a local server answering as `answer` says. */
  withOmdb: (answer: Answer) => Promise<{ omdb: LocalHttpServer; harness: ToolHarness }>;
  /** A session without a key whose DuckDuckGo is a local server sending `page`. */
  withoutKey: (page: string) => Promise<{ duckDuckGo: LocalHttpServer; harness: ToolHarness }>;
}

const test = serviceTest.extend<MovieFixtures>({
  withOmdb: async ({ serve, harnessWith }, use) =>
    use(async (answer) => {
      const omdb = await serve(answer);
      return { omdb, harness: await harnessWith({ MARVIN_OMDB_URL: omdb.origin, OMDB_API_KEY: "fixture-key" }) };
    }),
  withoutKey: async ({ serve, harnessWith }, use) =>
    use(async (page) => {
      const duckDuckGo = await serve((response) => sendText(response, page));
      return { duckDuckGo, harness: await harnessWith({ MARVIN_DDG_URL: duckDuckGo.origin }) };
    }),
});

describe("search_movies on OMDb", () => {
  test("lists titles with year, type and IMDb id, asking with the key", async ({ withOmdb }) => {
    const { omdb, harness } = await withOmdb((response) => sendJson(response, OMDB_SEARCH_BLADE_RUNNER));
    const text = await harness.ok("search_movies", { query: "blade runner", year: "", type: "" });
    expect(text).toBe(
      [
        "OMDb titles for 'blade runner' (first 4 of 38):",
        "1. Blade Runner (1982, movie) — IMDb id tt0083658",
        "2. Blade Runner 2049 (2017, movie) — IMDb id tt1856101",
        "3. Blade Runner: Black Lotus (2021–2022, series) — IMDb id tt12373138",
        "4. Blade Runner: Black Out 2022 (2017, movie) — IMDb id tt7428594",
      ].join("\n"),
    );
    expect(Object.fromEntries(urlOf(omdb.requests[0]!.url).searchParams)).toEqual({
      s: "blade runner",
      apikey: "fixture-key",
    });
  });

  test("passes the year and the kind of title on", async ({ withOmdb }) => {
    const { omdb, harness } = await withOmdb((response) => sendJson(response, OMDB_SEARCH_BLADE_RUNNER));
    await harness.ok("search_movies", { query: "blade runner", year: "2021", type: "series" });
    expect(Object.fromEntries(urlOf(omdb.requests[0]!.url).searchParams)).toMatchObject({ y: "2021", type: "series" });
  });

  test("takes the year as a number, as models often send it", async ({ withOmdb }) => {
    const { omdb, harness } = await withOmdb((response) => sendJson(response, OMDB_SEARCH_BLADE_RUNNER));
    await harness.ok("search_movies", { query: "blade runner", year: 1982 });
    expect(urlOf(omdb.requests[0]!.url).searchParams.get("y")).toBe("1982");
  });

  test("says so when OMDb finds nothing, and when the words match too much", async ({ withOmdb }) => {
    const { harness } = await withOmdb((response, _path, asked) =>
      sendJson(response, asked.get("s") === "a" ? OMDB_TOO_MANY_RESULTS : OMDB_MOVIE_NOT_FOUND),
    );
    expect(await harness.ok("search_movies", { query: "xyzzy plugh" })).toBe(
      "OMDb has no title matching 'xyzzy plugh'. Check the spelling, or try fewer words.",
    );
    expect(await harness.ok("search_movies", { query: "a" })).toBe(
      "Too many titles match 'a' on OMDb: add words or a year.",
    );
  });

  test("explains a refused key instead of a bare 401", async ({ withOmdb }) => {
    const { harness } = await withOmdb((response) => sendJson(response, OMDB_INVALID_KEY, 401));
    expect(await harness.failure("search_movies", { query: "alien" })).toMatch(
      /^Error in search_movies: OMDb answered HTTP 401: it refused OMDB_API_KEY: the key is wrong or not yet activated .*unset it to search the web instead\.$/,
    );
  });

  test("names OMDb when it fails or answers something else", async ({ withOmdb }) => {
    const { harness } = await withOmdb((response, _path, asked) =>
      asked.get("s") === "broken"
        ? sendText(response, "<html><body>Service Unavailable</body></html>", 503)
        : sendJson(response, { Search: "not a list", Response: "True" }),
    );
    expect(await harness.failure("search_movies", { query: "broken" })).toMatch(
      /^Error in search_movies: OMDb answered HTTP 503 \(Service Unavailable\) — try again in a minute\.$/,
    );
    expect(await harness.failure("search_movies", { query: "odd" })).toMatch(
      /^Error in search_movies: OMDb sent an answer Marvin does not understand: .*MARVIN_OMDB_URL=/,
    );
  });

  test("waits out a short Retry-After of a 429, then reads the answer", async ({ withOmdb }) => {
    const { omdb, harness } = await withOmdb((response) =>
      omdb.requests.length === 1
        ? sendJson(response, { Response: "False", Error: "Too many requests" }, 429, { "retry-after": "1" })
        : sendJson(response, OMDB_SEARCH_BLADE_RUNNER),
    );
    expect(await harness.ok("search_movies", { query: "blade runner" })).toMatch(/^OMDb titles for 'blade runner'/);
    expect(omdb.requests).toHaveLength(2);
  });

  test("gives up on a long Retry-After, saying when to come back", async ({ withOmdb }) => {
    const { harness } = await withOmdb((response) => sendJson(response, {}, 429, { "retry-after": "120" }));
    expect(await harness.failure("search_movies", { query: "alien" })).toBe(
      "Error in search_movies: OMDb is limiting how often Marvin may ask (HTTP 429) — try again in 2m 00s.",
    );
  });

  test("is stopped when OMDb does not answer in time", async ({ httpServers, home }) => {
    const omdb = await httpServers.start(() => undefined);
    const env = { MARVIN_OMDB_URL: omdb.origin, OMDB_API_KEY: "fixture-key" };
    const outcome = await callWithTimeLimit(
      movieTools,
      "search_movies",
      { query: "alien" },
      { home, env, timeoutMs: 300 },
    );
    expect(outcome).toEqual({
      result: "Tool search_movies timed out after 0.3s and was stopped. Try a smaller request.",
      isError: true,
    });
  });
});

describe("search_movies without a key", () => {
  test("finds IMDb title pages on the web and says which key gives more", async ({ withoutKey }) => {
    const { duckDuckGo, harness } = await withoutKey(DUCKDUCKGO_IMDB_BLADE_RUNNER);
    const text = await harness.ok("search_movies", { query: "blade runner" });
    expect(text).toBe(
      [
        "IMDb pages for 'blade runner':",
        "1. Blade Runner (1982) — https://www.imdb.com/title/tt0083658/",
        "   Blade Runner: Directed by Ridley Scott. With Harrison Ford, Rutger Hauer, Sean Young. A blade runner " +
          "must pursue and terminate four replicants who stole a ship in space.",
        "2. Blade Runner: Black Lotus (2021, TV Series) — https://www.imdb.com/title/tt12373138/",
        "   Los Angeles, 2032. A young woman wakes up with no memory, possessing deadly skills.",
        "3. Blade Runner 2049 (2017) — https://www.imdb.com/title/tt1856101/",
        "   Young Blade Runner K's discovery of a long-buried secret leads him to track down former Blade Runner " +
          "Rick Deckard, who's been missing for thirty years.",
        "OMDB_API_KEY is not set, so this comes from a web search of IMDb: titles, years and links only. With " +
          "OMDB_API_KEY (a free key from https://www.omdbapi.com/apikey.aspx) you get ratings, plot, director, cast " +
          "and runtime.",
      ].join("\n"),
    );
    expect(urlOf(duckDuckGo.requests[0]!.url).searchParams.get("q")).toBe("blade runner site:imdb.com/title");
  });

  test("says so when the web search finds no IMDb page", async ({ withoutKey }) => {
    const { harness } = await withoutKey(DUCKDUCKGO_NO_RESULTS_PAGE);
    expect(await harness.ok("search_movies", { query: "xyzzy", year: "1999" })).toMatch(
      /^A web search found no IMDb page for 'xyzzy' \(1999\)\.\nOMDB_API_KEY is not set/,
    );
  });
});

describe("get_movie_details", () => {
  test("reads ratings, plot, director and cast by IMDb id, leaving out what OMDb lacks", async ({ withOmdb }) => {
    const { omdb, harness } = await withOmdb((response) => sendJson(response, OMDB_BLADE_RUNNER));
    const text = await harness.ok("get_movie_details", { imdb_id: "tt0083658" });
    expect(text).toBe(
      [
        "Blade Runner (1982) — https://www.imdb.com/title/tt0083658/",
        "Type: movie",
        "Released: 25 Jun 1982",
        "Rated: R",
        "Runtime: 117 min",
        "Genre: Action, Drama, Sci-Fi",
        "Director: Ridley Scott",
        "Writer: Hampton Fancher, David Webb Peoples, Philip K. Dick",
        "Cast: Harrison Ford, Rutger Hauer, Sean Young",
        "Ratings: Internet Movie Database 8.1/10, Rotten Tomatoes 89%, Metacritic 84/100 (845,327 IMDb votes)",
        "Awards: Nominated for 2 Oscars. 13 wins & 23 nominations total",
        "Box office: $32,914,489",
        "Language: English, German, Cantonese, Japanese, Hungarian, Arabic, Korean",
        "Country: United States",
        `Plot: ${OMDB_BLADE_RUNNER.Plot}`,
      ].join("\n"),
    );
    expect(Object.fromEntries(urlOf(omdb.requests[0]!.url).searchParams)).toEqual({
      i: "tt0083658",
      plot: "full",
      apikey: "fixture-key",
    });
  });

  test("looks a series up by title, without the fields OMDb marks N/A", async ({ withOmdb }) => {
    const { omdb, harness } = await withOmdb((response) => sendJson(response, OMDB_BLACK_LOTUS));
    const text = await harness.ok("get_movie_details", { title: "Blade Runner: Black Lotus" });
    expect(urlOf(omdb.requests[0]!.url).searchParams.get("t")).toBe("Blade Runner: Black Lotus");
    expect(text).toContain("Seasons: 1\n");
    expect(text).not.toMatch(/N\/A|Director|Awards|Box office/);
  });

  test("takes an IMDb address as the id", async ({ withOmdb }) => {
    const { omdb, harness } = await withOmdb((response) => sendJson(response, OMDB_BLADE_RUNNER));
    const text = await harness.ok("get_movie_details", { imdb_id: "https://www.imdb.com/title/tt0083658/?ref_=fn_al" });
    expect(text).toMatch(/^Blade Runner \(1982\) — https:\/\/www\.imdb\.com\/title\/tt0083658\/\n/);
    expect(urlOf(omdb.requests[0]!.url).searchParams.get("i")).toBe("tt0083658");
  });

  test("says so when OMDb has no such title or id", async ({ withOmdb }) => {
    const { harness } = await withOmdb((response, _path, asked) =>
      sendJson(response, asked.has("i") ? OMDB_INCORRECT_ID : OMDB_MOVIE_NOT_FOUND),
    );
    expect(await harness.ok("get_movie_details", { imdb_id: "tt9999999999" })).toBe(
      "OMDb has no title with IMDb id tt9999999999. Find the IMDb id with search_movies.",
    );
    expect(await harness.ok("get_movie_details", { title: "Xyzzy" })).toMatch(/^OMDb has no title with 'Xyzzy'\./);
  });

  test("refuses a call without title and id, and an id that is not one", async ({ withOmdb }) => {
    const { omdb, harness } = await withOmdb((response) => sendJson(response, OMDB_BLADE_RUNNER));
    expect(await harness.failure("get_movie_details", {})).toBe(
      "Error in get_movie_details: Give imdb_id (from search_movies) or title.",
    );
    expect(await harness.failure("get_movie_details", { imdb_id: "0083658" })).toContain(
      'imdb_id: An IMDb id looks like "tt0083658".',
    );
    expect(omdb.requests).toHaveLength(0);
  });

  test("without a key, gives the IMDb page the web search finds first", async ({ withoutKey }) => {
    const { duckDuckGo, harness } = await withoutKey(DUCKDUCKGO_IMDB_BLADE_RUNNER);
    const text = await harness.ok("get_movie_details", { imdb_id: "tt0083658" });
    expect(text).toMatch(/^Blade Runner \(1982\) — https:\/\/www\.imdb\.com\/title\/tt0083658\/\n {3}Blade Runner: /);
    expect(text).toContain("OMDB_API_KEY is not set");
    expect(urlOf(duckDuckGo.requests[0]!.url).searchParams.get("q")).toBe("tt0083658 site:imdb.com/title");
  });
});
