import { describe, expect } from "../../../../tests/support/fixtures.js";
import { type LocalHttpServer, sendJson, sendText } from "../../../../tests/support/local-http-server.js";
import { DUCKDUCKGO_CHALLENGE_PAGE } from "../../../../tests/support/payloads/duckduckgo.js";
import {
  DUCKDUCKGO_WIKIPEDIA_PORTAL,
  RAWG_NO_KEY,
  RAWG_NOT_FOUND,
  RAWG_PORTAL_2,
  RAWG_SEARCH_NOTHING,
  RAWG_SEARCH_PORTAL,
} from "../../../../tests/support/payloads/media.js";
import { type Answer, test as serviceTest, urlOf } from "../../../../tests/support/service-fixtures.js";
import type { ToolHarness } from "../../../../tests/support/tool-harness.js";
import { callWithTimeLimit } from "../../../../tests/support/tool-time-limit.js";
import { gameTools } from "./games.js";

/** `withRawg(answer)`: a session with a RAWG key whose RAWG is a local server answering as `answer` says. */
const test = serviceTest.extend<{
  withRawg: (answer: Answer) => Promise<{ rawg: LocalHttpServer; harness: ToolHarness }>;
}>({
  withRawg: async ({ serve, harnessWith }, use) =>
    use(async (answer) => {
      const rawg = await serve(answer);
      return { rawg, harness: await harnessWith({ MARVIN_RAWG_URL: rawg.origin, RAWG_API_KEY: "fixture-key" }) };
    }),
});

describe("search_games on RAWG", () => {
  test("lists games with id, date, scores, platforms and genres; nulls left out", async ({ withRawg }) => {
    const { rawg, harness } = await withRawg((response) => sendJson(response, RAWG_SEARCH_PORTAL));
    expect(await harness.ok("search_games", { query: "portal", max_results: 2 })).toBe(
      [
        "RAWG games for 'portal' (first 2 of 312):",
        "1. Portal 2 — id 4200, 2011-04-18, rating 4.61/5 (5,674 ratings), Metacritic 95",
        "   Platforms: PC, PlayStation 3, Xbox 360, macOS, Linux",
        "   Genres: Shooter, Puzzle",
        "2. Portal Forever — id 981204, to be announced",
      ].join("\n"),
    );
    const asked = urlOf(rawg.requests[0]!.url);
    expect(asked.pathname).toBe("/api/games");
    expect(Object.fromEntries(asked.searchParams)).toEqual({ key: "fixture-key", search: "portal", page_size: "2" });
  });

  test("says so when RAWG finds nothing", async ({ withRawg }) => {
    const { harness } = await withRawg((response) => sendJson(response, RAWG_SEARCH_NOTHING));
    expect(await harness.ok("search_games", { query: "xyzzy" })).toBe(
      "RAWG has no game matching 'xyzzy'. Check the spelling, or try fewer words.",
    );
  });

  test("explains a refused key", async ({ withRawg }) => {
    const { harness } = await withRawg((response) => sendJson(response, RAWG_NO_KEY, 401));
    expect(await harness.failure("search_games", { query: "portal" })).toMatch(
      /^Error in search_games: RAWG answered HTTP 401: it refused RAWG_API_KEY: the key is wrong, or its monthly requests/,
    );
  });

  test("names RAWG when it fails or sends something else", async ({ withRawg }) => {
    const { harness } = await withRawg((response, _path, query) =>
      query.get("search") === "down"
        ? sendText(response, "<html><body><h1>502 Bad Gateway</h1></body></html>", 502)
        : sendJson(response, { count: "many", results: null }),
    );
    expect(await harness.failure("search_games", { query: "down" })).toBe(
      "Error in search_games: RAWG answered HTTP 502 (Bad Gateway) — try again in a minute.",
    );
    expect(await harness.failure("search_games", { query: "odd" })).toMatch(
      /^Error in search_games: RAWG sent an answer Marvin does not understand: .*MARVIN_RAWG_URL=/,
    );
  });

  test("gives up on a long Retry-After of a 429, saying when to come back", async ({ withRawg }) => {
    const { harness } = await withRawg((response) => sendJson(response, {}, 429, { "retry-after": "90" }));
    expect(await harness.failure("search_games", { query: "portal" })).toBe(
      "Error in search_games: RAWG is limiting how often Marvin may ask (HTTP 429) — try again in 1m 30s.",
    );
  });

  test("is stopped when RAWG does not answer in time", async ({ httpServers, home }) => {
    const rawg = await httpServers.start(() => undefined);
    const env = { MARVIN_RAWG_URL: rawg.origin, RAWG_API_KEY: "fixture-key" };
    const args = { query: "portal" };
    const outcome = await callWithTimeLimit(gameTools, "search_games", args, { home, env, timeoutMs: 300 });
    expect(outcome.result).toBe("Tool search_games timed out after 0.3s and was stopped. Try a smaller request.");
  });
});

describe("search_games without a key", () => {
  test("finds games on Wikipedia with their years, and says which key gives more", async ({
    httpServers,
    harnesses,
    home,
  }) => {
    const duckDuckGo = await httpServers.start((_request, response) => sendText(response, DUCKDUCKGO_WIKIPEDIA_PORTAL));
    const harness = await harnesses.open({ home, env: { MARVIN_DDG_URL: duckDuckGo.origin } });
    expect(await harness.ok("search_games", { query: "portal" })).toBe(
      [
        "Games matching 'portal' on Wikipedia:",
        "1. Portal 2 (2011) — https://en.wikipedia.org/wiki/Portal_2",
        "   Portal 2 is a 2011 puzzle-platform game developed by Valve. It was released for Windows, Mac OS X, " +
          "Linux, PlayStation 3, and Xbox 360.",
        "2. Portal (2007) — https://en.wikipedia.org/wiki/Portal_(video_game)",
        "   Portal is a 2007 puzzle-platform game developed and published by Valve. It was released in a bundle, " +
          "The Orange Box, for Windows, Xbox 360 and PlayStation 3.",
        "3. Portal (series) — https://en.wikipedia.org/wiki/Portal_(series)",
        "   Portal is a series of first-person puzzle-platform video games developed by Valve.",
        "RAWG_API_KEY is not set, so this comes from a web search of Wikipedia: titles, years and links only. With " +
          "RAWG_API_KEY (a free key from https://rawg.io/apidocs) you get ratings, platforms, genres and RAWG ids " +
          "for get_game_details.",
      ].join("\n"),
    );
    expect(urlOf(duckDuckGo.requests[0]!.url).searchParams.get("q")).toBe("portal video game site:en.wikipedia.org");
  });

  test("passes DuckDuckGo's bot check on as advice", async ({ httpServers, harnesses, home }) => {
    const duckDuckGo = await httpServers.start((_request, response) => sendText(response, DUCKDUCKGO_CHALLENGE_PAGE));
    const harness = await harnesses.open({ home, env: { MARVIN_DDG_URL: duckDuckGo.origin } });
    expect(await harness.failure("search_games", { query: "portal" })).toMatch(
      /^Error in search_games: DuckDuckGo answered with a bot check .* Wait a minute and try again\.$/,
    );
  });
});

describe("get_game_details", () => {
  test("reads a game by id, its HTML description as text", async ({ withRawg }) => {
    const { rawg, harness } = await withRawg((response) => sendJson(response, RAWG_PORTAL_2));
    expect(await harness.ok("get_game_details", { game_id: 4200 })).toBe(
      [
        "Portal 2 — https://rawg.io/games/portal-2",
        "Released: 2011-04-18",
        "Scores: rating 4.61/5 (5,674 ratings), Metacritic 95",
        "Platforms: PC, PlayStation 3, Xbox 360, macOS, Linux",
        "Genres: Shooter, Puzzle",
        "Developers: Valve Software",
        "Publishers: Valve, Electronic Arts",
        "Age rating (ESRB): Everyone 10+",
        "Average playtime: 11 hours",
        "Website: http://www.thinkwithportals.com/",
        "",
        "Portal 2 is a first-person puzzle game developed by Valve Corporation and released on April 19, 2011 on " +
          "Steam, PS3 and Xbox 360.",
        "",
        "Plot",
        "",
        'Chell wakes up "many years later" in Aperture Science\'s decaying facility.',
        "Wheatley, a personality core, helps her escape.",
        "",
        "The co-op campaign pairs two robots, Atlas & P-Body.",
      ].join("\n"),
    );
    const asked = urlOf(rawg.requests[0]!.url);
    expect([asked.pathname, asked.searchParams.get("key")]).toEqual(["/api/games/4200", "fixture-key"]);
  });

  test("says so when RAWG has no game with the id", async ({ withRawg }) => {
    const { harness } = await withRawg((response) => sendJson(response, RAWG_NOT_FOUND, 404));
    expect(await harness.ok("get_game_details", { game_id: 1 })).toBe(
      "RAWG has no game with id 1. Find the id with search_games.",
    );
  });

  test("refuses an answer that is not a game", async ({ withRawg }) => {
    const { harness } = await withRawg((response) => sendText(response, "<html>maintenance</html>"));
    expect(await harness.failure("get_game_details", { game_id: 4200 })).toMatch(
      /^Error in get_game_details: RAWG sent an answer Marvin does not understand/,
    );
  });

  test("finds a game by name on RAWG, then reads its details", async ({ withRawg }) => {
    const { rawg, harness } = await withRawg((response, path) =>
      sendJson(response, path === "/api/games" ? RAWG_SEARCH_PORTAL : RAWG_PORTAL_2),
    );
    const text = await harness.ok("get_game_details", { name: "portal 2" });
    expect(text.split("\n").slice(0, 2)).toEqual(["Portal 2 — https://rawg.io/games/portal-2", "Released: 2011-04-18"]);
    expect(rawg.requests.map((request) => urlOf(request.url).pathname)).toEqual(["/api/games", "/api/games/4200"]);
    expect(urlOf(rawg.requests[0]!.url).searchParams.get("search")).toBe("portal 2");
  });

  test("without a key, searches the web by name and says the details come from there", async ({
    httpServers,
    harnesses,
    home,
  }) => {
    const duckDuckGo = await httpServers.start((_request, response) => sendText(response, DUCKDUCKGO_WIKIPEDIA_PORTAL));
    const harness = await harnesses.open({ home, env: { MARVIN_DDG_URL: duckDuckGo.origin } });
    expect(await harness.ok("get_game_details", { name: "portal 2" })).toBe(
      [
        "From a web search for 'portal 2' (not RAWG):",
        "Portal 2 (2011) — https://en.wikipedia.org/wiki/Portal_2",
        "   Portal 2 is a 2011 puzzle-platform game developed by Valve. It was released for Windows, Mac OS X, " +
          "Linux, PlayStation 3, and Xbox 360.",
        "RAWG_API_KEY is not set, so this comes from a web search of Wikipedia: titles, years and links only. With " +
          "RAWG_API_KEY (a free key from https://rawg.io/apidocs) you get ratings, platforms, genres and RAWG ids " +
          "for get_game_details.",
      ].join("\n"),
    );
    expect(urlOf(duckDuckGo.requests[0]!.url).searchParams.get("q")).toBe("portal 2 video game site:en.wikipedia.org");
  });

  test("without a key, asks for the name of a game given only by its RAWG id", async ({ harnesses, home }) => {
    const harness = await harnesses.open({ home, env: {} });
    expect(await harness.failure("get_game_details", { game_id: 4200 })).toBe(
      "Error in get_game_details: without RAWG_API_KEY (a free key from https://rawg.io/apidocs) a RAWG id cannot " +
        "be looked up: give the game's name, and a web search finds it.",
    );
  });
});
