import { describe, expect, test } from "../support/fixtures.js";
import { sendJson } from "../support/local-http-server.js";
import { OMDB_SEARCH_BLADE_RUNNER } from "../support/payloads/media.js";
import { STEAM_APP_PORTAL_2 } from "../support/payloads/steam.js";
import { runMarvin, serverEnv } from "../support/run-marvin.js";

describe("film, game and Steam tools in the built CLI", () => {
  test("searches OMDb with the key from the environment and reads the Steam store without one", async ({
    home,
    llm,
    httpServers,
  }) => {
    const omdb = await httpServers.start((_request, response) => sendJson(response, OMDB_SEARCH_BLADE_RUNNER));
    const steam = await httpServers.start((_request, response) => sendJson(response, STEAM_APP_PORTAL_2));
    const server = await llm([
      {
        toolCalls: [
          { name: "search_movies", arguments: { query: "blade runner" } },
          { name: "steam_app_details", arguments: { app_id: 620 } },
        ],
      },
      { text: "Blade Runner is from 1982; Portal 2 costs $9.99." },
    ]);
    const env = serverEnv(server.url, home, {
      MARVIN_OMDB_URL: omdb.origin,
      OMDB_API_KEY: "e2e-omdb-key",
      MARVIN_STEAM_STORE_URL: steam.origin,
    });
    const run = await runMarvin(["--non-interactive", "--prompt", "Blade Runner year? Portal 2 price?"], {
      env,
      cwd: home,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(
      "  🔧 search_movies, steam_app_details\nBlade Runner is from 1982; Portal 2 costs $9.99.\n",
    );
    expect(new URL(omdb.requests[0]!.url, omdb.origin).searchParams.get("apikey")).toBe("e2e-omdb-key");
    const results = server.requests[1]!.body.messages.filter((message) => message.role === "tool");
    expect(results.map((message) => message.content?.split("\n")[0])).toEqual([
      "OMDb titles for 'blade runner' (first 4 of 38):",
      "Portal 2 (app 620) — https://store.steampowered.com/app/620/",
    ]);
    expect(results.map((message) => message.content).join("\n")).not.toContain("e2e-omdb-key");
  });
});
