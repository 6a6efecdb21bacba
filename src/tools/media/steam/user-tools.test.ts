import { describe, expect } from "../../../../tests/support/fixtures.js";
import { type LocalHttpServer, sendJson, sendText } from "../../../../tests/support/local-http-server.js";
import {
  STEAM_FORBIDDEN_PAGE,
  STEAM_NO_PLAYERS,
  STEAM_OWNED_GAMES,
  STEAM_OWNED_GAMES_PRIVATE,
  STEAM_PLAYER_SUMMARY,
  STEAM_PRIVATE_SUMMARY,
  STEAM_VANITY_NO_MATCH,
  STEAM_VANITY_RESOLVED,
} from "../../../../tests/support/payloads/steam.js";
import { type Answer, test as serviceTest, urlOf } from "../../../../tests/support/service-fixtures.js";
import type { ToolHarness } from "../../../../tests/support/tool-harness.js";
import { callWithTimeLimit } from "../../../../tests/support/tool-time-limit.js";
import { steamTools } from "./index.js";

const GABE = "76561197960287930";

type SteamApi = { api: LocalHttpServer; harness: ToolHarness };

/** `withSteamApi(answer, key)`: a session with STEAM_API_KEY whose Steam Web API answers as `answer` says. */
const test = serviceTest.extend<{ withSteamApi: (answer: Answer, key?: string) => Promise<SteamApi> }>({
  withSteamApi: async ({ serve, harnessWith }, use) =>
    use(async (answer, key = "fixture-key") => {
      const api = await serve(answer);
      return { api, harness: await harnessWith({ MARVIN_STEAM_API_URL: api.origin, STEAM_API_KEY: key }) };
    }),
});

/** Answers ResolveVanityURL with `vanity`, every other method with `rest`. */
const resolvingWith =
  (vanity: unknown, rest: unknown): Answer =>
  (response, path) =>
    sendJson(response, path.includes("ResolveVanityURL") ? vanity : rest);

describe("steam_user_games", () => {
  test("lists the games by playtime in hours, with the last two weeks and the last day played", async ({
    withSteamApi,
  }) => {
    const { api, harness } = await withSteamApi((response) => sendJson(response, STEAM_OWNED_GAMES));
    expect(await harness.ok("steam_user_games", { steam_id: GABE })).toBe(
      [
        `Steam profile ${GABE} owns 3 games, 29.9 h played in all; 1 never played.`,
        "By playtime:",
        "1. Portal 2 — app 620, 24.6 h, 1.6 h in the last two weeks, last played 2025-11-24",
        "2. Portal — app 400, 5.3 h, last played 2023-07-01",
        "3. Portal Reloaded — app 1255980, 0 h",
      ].join("\n"),
    );
    const asked = urlOf(api.requests[0]!.url);
    expect(asked.pathname).toBe("/IPlayerService/GetOwnedGames/v1/");
    expect(Object.fromEntries(asked.searchParams)).toEqual({
      key: "fixture-key",
      steamid: GABE,
      include_appinfo: "1",
      include_played_free_games: "1",
      format: "json",
    });
  });

  test("resolves a profile URL's custom name first", async ({ withSteamApi }) => {
    const { api, harness } = await withSteamApi(resolvingWith(STEAM_VANITY_RESOLVED, STEAM_OWNED_GAMES));
    const text = await harness.ok("steam_user_games", { steam_id: "https://steamcommunity.com/id/gabelogannewell/" });
    expect(text).toMatch(new RegExp(`^Steam profile ${GABE} owns 3 games`));
    const [resolve, games] = api.requests.map((request) => urlOf(request.url));
    expect([resolve!.pathname, resolve!.searchParams.get("vanityurl")]).toEqual([
      "/ISteamUser/ResolveVanityURL/v1/",
      "gabelogannewell",
    ]);
    expect(games!.searchParams.get("steamid")).toBe(GABE);
  });

  test("says so when the profile's game details are private", async ({ withSteamApi }) => {
    const { harness } = await withSteamApi((response) => sendJson(response, STEAM_OWNED_GAMES_PRIVATE));
    expect(await harness.ok("steam_user_games", { steam_id: GABE })).toBe(
      `Steam shows no games for profile ${GABE}: its game details are private (or it has none). The owner can ` +
        "make them public under Edit Profile → Privacy Settings.",
    );
  });

  test("says which key it needs when STEAM_API_KEY is not set, without asking Steam", async ({ withSteamApi }) => {
    const { api, harness } = await withSteamApi((response) => sendJson(response, STEAM_OWNED_GAMES), "");
    expect(await harness.failure("steam_user_games", { steam_id: GABE })).toBe(
      "Error in steam_user_games: steam_user_games needs STEAM_API_KEY (a free key from " +
        "https://steamcommunity.com/dev/apikey); set it and restart Marvin. Without a key, steam_search, " +
        "steam_app_details, steam_featured and steam_player_stats still work.",
    );
    expect(api.requests).toHaveLength(0);
  });

  test("explains Steam's refusal of the key", async ({ withSteamApi }) => {
    const { harness } = await withSteamApi((response) => sendText(response, STEAM_FORBIDDEN_PAGE, 403));
    expect(await harness.failure("steam_user_games", { steam_id: GABE })).toBe(
      "Error in steam_user_games: Steam Web API answered HTTP 403: it refused STEAM_API_KEY. Check the key (a free " +
        "key from https://steamcommunity.com/dev/apikey).",
    );
  });

  test("refuses an answer of the wrong shape", async ({ withSteamApi }) => {
    const { harness } = await withSteamApi((response) =>
      sendJson(response, { response: { games: [{ name: "no app id" }] } }),
    );
    expect(await harness.failure("steam_user_games", { steam_id: GABE })).toMatch(
      /^Error in steam_user_games: Steam Web API sent an answer Marvin does not understand: response\.games\.0\.appid/,
    );
  });

  test("is stopped when Steam does not answer in time", async ({ httpServers, home }) => {
    const api = await httpServers.start(() => undefined);
    const env = { MARVIN_STEAM_API_URL: api.origin, STEAM_API_KEY: "fixture-key" };
    const args = { steam_id: GABE };
    const outcome = await callWithTimeLimit(steamTools, "steam_user_games", args, { home, env, timeoutMs: 300 });
    expect(outcome.result).toBe("Tool steam_user_games timed out after 0.3s and was stopped. Try a smaller request.");
  });
});

describe("steam_user_summary", () => {
  test("reads name, status, the game being played, country and dates", async ({ withSteamApi }) => {
    const { api, harness } = await withSteamApi(resolvingWith(STEAM_VANITY_RESOLVED, STEAM_PLAYER_SUMMARY));
    expect(await harness.ok("steam_user_summary", { steam_id: "gabelogannewell" })).toBe(
      [
        "Rabscuttle",
        `Steam id: ${GABE}`,
        "Profile: https://steamcommunity.com/id/gabelogannewell/",
        "Visibility: public",
        "Status: online",
        "Playing now: Portal 2 (app 620)",
        "Real name: Gabe Newell",
        "Country: US",
        "Member since: 2003-09-12",
        "Last online: 2025-11-22",
      ].join("\n"),
    );
    const summary = urlOf(api.requests[1]!.url);
    expect([summary.pathname, summary.searchParams.get("steamids")]).toEqual([
      "/ISteamUser/GetPlayerSummaries/v2/",
      GABE,
    ]);
  });

  test("says a profile is private, with what little it shows", async ({ withSteamApi }) => {
    const { harness } = await withSteamApi((response) => sendJson(response, STEAM_PRIVATE_SUMMARY));
    expect(await harness.ok("steam_user_summary", { steam_id: "76561198000000001" })).toBe(
      [
        "quiet one",
        "Steam id: 76561198000000001",
        "Profile: https://steamcommunity.com/profiles/76561198000000001/",
        "Visibility: private (only the name and status are visible)",
        "Status: offline",
      ].join("\n"),
    );
  });

  test("says so when no profile has the id or the custom name", async ({ withSteamApi }) => {
    const { harness } = await withSteamApi(resolvingWith(STEAM_VANITY_NO_MATCH, STEAM_NO_PLAYERS));
    expect(await harness.ok("steam_user_summary", { steam_id: "76561198999999999" })).toBe(
      "Steam has no profile with id 76561198999999999.",
    );
    expect(await harness.failure("steam_user_summary", { steam_id: "nobody_here" })).toBe(
      "Error in steam_user_summary: No Steam profile has the custom URL name 'nobody_here'. Check the spelling, " +
        "or give the SteamID64 (17 digits) from the profile's URL.",
    );
  });

  test("refuses what is neither an id, a profile URL nor a custom name", async ({ withSteamApi }) => {
    const { api, harness } = await withSteamApi((response) => sendJson(response, STEAM_PLAYER_SUMMARY));
    expect(
      await harness.failure("steam_user_summary", { steam_id: "https://steamcommunity.com/profiles/123" }),
    ).toMatch(
      /^Error in steam_user_summary: 'https:\/\/steamcommunity\.com\/profiles\/123' is not a Steam profile: give a/,
    );
    expect(await harness.failure("steam_user_summary", { steam_id: "gabe newell" })).toMatch(/is not a Steam profile/);
    expect(api.requests).toHaveLength(0);
  });

  test("names the Steam Web API when it fails", async ({ withSteamApi }) => {
    const { harness } = await withSteamApi((response) => sendText(response, "<html>Bad Gateway</html>", 502));
    expect(await harness.failure("steam_user_summary", { steam_id: GABE })).toBe(
      "Error in steam_user_summary: Steam Web API answered HTTP 502 (Bad Gateway) — try again in a minute.",
    );
  });
});
