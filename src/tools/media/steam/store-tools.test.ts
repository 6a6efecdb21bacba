import { describe, expect } from "../../../../tests/support/fixtures.js";
import { type LocalHttpServer, sendJson, sendText } from "../../../../tests/support/local-http-server.js";
import {
  STEAM_ACHIEVEMENT_SHARES,
  STEAM_APP_COMING_SOON,
  STEAM_APP_PORTAL_2,
  STEAM_APP_UNKNOWN,
  STEAM_CURRENT_PLAYERS,
  STEAM_FEATURED,
  STEAM_NO_SUCH_APP_PLAYERS,
  STEAM_SEARCH_NOTHING,
  steamSearchPortal,
} from "../../../../tests/support/payloads/steam.js";
import { type Answer, test as serviceTest, urlOf } from "../../../../tests/support/service-fixtures.js";
import type { ToolHarness } from "../../../../tests/support/tool-harness.js";
import { callWithTimeLimit } from "../../../../tests/support/tool-time-limit.js";
import { steamTools } from "./index.js";

type SteamServers = { store: LocalHttpServer; api: LocalHttpServer; harness: ToolHarness };

/** `withSteam(store, api)`: a session whose Steam store and Steam Web API are local servers answering so. */
const test = serviceTest.extend<{ withSteam: (store: Answer, api?: Answer) => Promise<SteamServers> }>({
  withSteam: async ({ serve, harnessWith }, use) =>
    use(async (store, api) => {
      const notThisServer: Answer = (response) => sendText(response, "not this server", 500);
      const [storeServer, apiServer] = await Promise.all([serve(store), serve(api ?? notThisServer)]);
      const env = { MARVIN_STEAM_STORE_URL: storeServer.origin, MARVIN_STEAM_API_URL: apiServer.origin };
      return { store: storeServer, api: apiServer, harness: await harnessWith(env) };
    }),
});

describe("steam_search", () => {
  test("lists matches with app id, price with currency and discount, score and platforms", async ({ withSteam }) => {
    const { store, harness } = await withSteam((response) => sendJson(response, steamSearchPortal()));
    expect(await harness.ok("steam_search", { query: "portal" })).toBe(
      [
        "Steam store matches for 'portal':",
        "1. Portal 2 — app 620, $9.99, Metacritic 95, Windows, macOS, Linux — https://store.steampowered.com/app/620/",
        "2. Portal — app 400, $1.99 (-80% from $9.99), Metacritic 90, Windows, macOS, Linux — " +
          "https://store.steampowered.com/app/400/",
        "3. Portal Reloaded — app 1255980, no price (free, or not on sale yet), Windows — " +
          "https://store.steampowered.com/app/1255980/",
      ].join("\n"),
    );
    const asked = urlOf(store.requests[0]!.url);
    expect(asked.pathname).toBe("/api/storesearch/");
    expect(Object.fromEntries(asked.searchParams)).toEqual({ term: "portal", cc: "us", l: "english" });
  });

  test("asks for another country's prices and shows its currency, up to max_results", async ({ withSteam }) => {
    const { store, harness } = await withSteam((response) => sendJson(response, steamSearchPortal("EUR")));
    const text = await harness.ok("steam_search", { query: "portal", max_results: 2, country: "DE" });
    expect(text.split("\n")).toHaveLength(3);
    expect(text).toContain("2. Portal — app 400, €1.99 (-80% from €9.99)");
    expect(urlOf(store.requests[0]!.url).searchParams.get("cc")).toBe("de");
  });

  test("says so when the store has nothing", async ({ withSteam }) => {
    const { harness } = await withSteam((response) => sendJson(response, STEAM_SEARCH_NOTHING));
    expect(await harness.ok("steam_search", { query: "xyzzy" })).toBe(
      "The Steam store has nothing matching 'xyzzy'. Try fewer or other words.",
    );
  });

  test("names the Steam store when it fails, sends something else, or limits requests", async ({ withSteam }) => {
    const { harness } = await withSteam((response, _path, query) => {
      const term = query.get("term");
      if (term === "down") sendText(response, "<html>Service Unavailable</html>", 503);
      else if (term === "busy") sendText(response, "", 429, { "retry-after": "300" });
      else sendText(response, "<!DOCTYPE html><html><body>Access Denied</body></html>");
    });
    expect(await harness.failure("steam_search", { query: "down" })).toBe(
      "Error in steam_search: Steam Store answered HTTP 503 (Service Unavailable) — try again in a minute.",
    );
    expect(await harness.failure("steam_search", { query: "busy" })).toBe(
      "Error in steam_search: Steam Store is limiting how often Marvin may ask (HTTP 429) — try again in 5m 00s.",
    );
    expect(await harness.failure("steam_search", { query: "odd" })).toMatch(
      /^Error in steam_search: Steam Store sent an answer Marvin does not understand: .*MARVIN_STEAM_STORE_URL=/,
    );
  });

  test("is stopped when the store does not answer in time", async ({ httpServers, home }) => {
    const store = await httpServers.start(() => undefined);
    const env = { MARVIN_STEAM_STORE_URL: store.origin };
    const args = { query: "portal" };
    const outcome = await callWithTimeLimit(steamTools, "steam_search", args, { home, env, timeoutMs: 300 });
    expect(outcome.result).toBe("Tool steam_search timed out after 0.3s and was stopped. Try a smaller request.");
  });
});

describe("steam_app_details", () => {
  test("reads the store page: price, date as a date, HTML texts as plain text", async ({ withSteam }) => {
    const { store, harness } = await withSteam((response) => sendJson(response, STEAM_APP_PORTAL_2));
    expect(await harness.ok("steam_app_details", { app_id: 620 })).toBe(
      [
        "Portal 2 (app 620) — https://store.steampowered.com/app/620/",
        "Type: game",
        "Price: $9.99",
        "Released: 2011-04-18",
        "Developers: Valve",
        "Publishers: Valve",
        "Genres: Action, Adventure",
        "Platforms: Windows, macOS, Linux",
        "Metacritic: 95",
        "Recommendations: 433,512",
        "Achievements: 51",
        "Features: Single-player, Co-op, Steam Achievements",
        "Languages: English*, French*, German*, Spanish - Spain*, Japanese *languages with full audio support",
        "Website: http://www.thinkwithportals.com/",
        "",
        'The "Perpetual Testing Initiative" has been expanded to allow you to design co-op puzzles for you and ' +
          "your friends!",
        "",
        "Single Player",
        "",
        "The single-player portion of Portal 2 introduces a cast of dynamic new characters & a host of fresh " +
          "puzzle elements.",
        "",
        "Cooperative Gaming",
        "",
        "Portal 2 features a cooperative mode where two players take on the role of robotic partners Atlas & " +
          "P-Body.",
      ].join("\n"),
    );
    const asked = urlOf(store.requests[0]!.url);
    expect(asked.pathname).toBe("/api/appdetails");
    expect(Object.fromEntries(asked.searchParams)).toEqual({ appids: "620", cc: "us", l: "english" });
  });

  test("shows an unreleased game as coming soon, and its minimum age given as a string", async ({ withSteam }) => {
    const { harness } = await withSteam((response) => sendJson(response, STEAM_APP_COMING_SOON));
    const text = await harness.ok("steam_app_details", { app_id: 2868840 });
    expect(text).toContain("Released: coming soon (Coming soon)\n");
    expect(text).toContain("Minimum age: 16\n");
    expect(text).not.toContain("Price:");
  });

  test("says so when the store has no such app", async ({ withSteam }) => {
    const { harness } = await withSteam((response) => sendJson(response, STEAM_APP_UNKNOWN));
    expect(await harness.ok("steam_app_details", { app_id: 9999999 })).toBe(
      "The Steam store has no app 9999999 (or it is not sold in 'us'). Find ids with steam_search.",
    );
  });

  test("refuses store data of the wrong shape", async ({ withSteam }) => {
    const broken = { "620": { success: true, data: { name: "Portal 2", price_overview: "9.99" } } };
    const { harness } = await withSteam((response) => sendJson(response, broken));
    expect(await harness.failure("steam_app_details", { app_id: 620 })).toMatch(
      /^Error in steam_app_details: Steam Store sent an answer Marvin does not understand: 620\.data\./,
    );
  });
});

describe("steam_featured", () => {
  test("lists discounts with end dates, top sellers without repeats, new and coming games", async ({ withSteam }) => {
    const { store, harness } = await withSteam((response) => sendJson(response, STEAM_FEATURED));
    expect(await harness.ok("steam_featured", { country: "de" })).toBe(
      [
        "Specials (discounts):",
        "1. Red Dead Redemption 2 — app 1174180, €14.99 (-75% from €59.99), offer ends 2026-09-08",
        "2. Terraria — app 105600, €4.99 (-50% from €9.99), offer ends 2026-09-07",
        "",
        "Top sellers:",
        "1. Counter-Strike 2 — app 730, free",
        "2. Red Dead Redemption 2 — app 1174180, €14.99 (-75% from €59.99), offer ends 2026-09-08",
        "",
        "New releases:",
        "1. Crimson Desert — app 3321460, €69.99",
        "",
        "Coming soon:",
        "1. Slay the Spire 2 — app 2868840",
      ].join("\n"),
    );
    const asked = urlOf(store.requests[0]!.url);
    expect([asked.pathname, asked.searchParams.get("cc")]).toEqual(["/api/featuredcategories", "de"]);
  });

  test("says so when nothing is featured", async ({ withSteam }) => {
    const { harness } = await withSteam((response) => sendJson(response, { status: 1 }));
    expect(await harness.ok("steam_featured", {})).toBe("The Steam store features nothing right now.");
  });

  test("refuses an answer that is not the featured lists", async ({ withSteam }) => {
    const { harness } = await withSteam((response) =>
      sendJson(response, { specials: { name: "Specials", items: "none" } }),
    );
    expect(await harness.failure("steam_featured", {})).toMatch(
      /^Error in steam_featured: Steam Store sent an answer Marvin does not understand: specials\.items/,
    );
  });
});

describe("steam_player_stats", () => {
  test("gives the players now and the most common and rarest achievements", async ({ withSteam }) => {
    const { api, harness } = await withSteam(
      (response) => sendJson(response, {}),
      (response, path) =>
        sendJson(response, path.includes("CurrentPlayers") ? STEAM_CURRENT_PLAYERS : STEAM_ACHIEVEMENT_SHARES),
    );
    expect(await harness.ok("steam_player_stats", { app_id: 620 })).toBe(
      [
        "Steam app 620 — https://store.steampowered.com/app/620/",
        "Players now: 48,213",
        "Achievements: 7, by share of players who unlocked them.",
        "Most common: PORTAL2_WAKE_UP 93.4%, PORTAL2_YOU_MONSTER 71.6%, PORTAL2_UNDISCOVERED 58.2%, " +
          "PORTAL2_STALEMATE 55.1%, PORTAL2_CAREER_COUNSELING 12.5%",
        "Rarest: PORTAL2_FRIENDS_LIST 1.1%, PORTAL2_PARTY_OF_THREE 3.3%, PORTAL2_CAREER_COUNSELING 12.5%, " +
          "PORTAL2_STALEMATE 55.1%, PORTAL2_UNDISCOVERED 58.2%",
      ].join("\n"),
    );
    const paths = api.requests.map((request) => urlOf(request.url)).map((url) => `${url.pathname}${url.search}`);
    expect(paths.sort()).toEqual([
      "/ISteamUserStats/GetGlobalAchievementPercentagesForApp/v2/?gameid=620",
      "/ISteamUserStats/GetNumberOfCurrentPlayers/v1/?appid=620",
    ]);
  });

  test("keeps the player count when the achievement statistics fail", async ({ withSteam }) => {
    const { harness } = await withSteam(
      (response) => sendJson(response, {}),
      (response, path) =>
        path.includes("CurrentPlayers")
          ? sendJson(response, STEAM_CURRENT_PLAYERS)
          : sendText(response, "garbage", 200, { "content-type": "application/json" }),
    );
    const text = await harness.ok("steam_player_stats", { app_id: 620 });
    expect(text).toMatch(/^Steam app 620 .*\nPlayers now: 48,213\nAchievements: not available \(Steam Web API sent/);
  });

  test("says so when Steam knows no such app", async ({ withSteam }) => {
    const { harness } = await withSteam(
      (response) => sendJson(response, {}),
      (response, path) =>
        path.includes("CurrentPlayers")
          ? sendJson(response, STEAM_NO_SUCH_APP_PLAYERS)
          : sendText(response, "<html><body><h1>Forbidden</h1></body></html>", 403),
    );
    expect(await harness.ok("steam_player_stats", { app_id: 1 })).toBe(
      "Steam has no player statistics for app 1. Check the id with steam_search.",
    );
  });

  test("names the Steam Web API when it fails", async ({ withSteam }) => {
    const { harness } = await withSteam(
      (response) => sendJson(response, {}),
      (response) => sendJson(response, {}, 429, { "retry-after": "600" }),
    );
    expect(await harness.failure("steam_player_stats", { app_id: 620 })).toBe(
      "Error in steam_player_stats: Steam Web API is limiting how often Marvin may ask (HTTP 429) — try again " +
        "in 10m 00s.",
    );
  });
});
