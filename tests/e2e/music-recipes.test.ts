import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "../support/fixtures.js";
import { sendJson } from "../support/local-http-server.js";
import { MUSICBRAINZ_ARTIST_SEARCH, MUSICBRAINZ_RECORDING_SEARCH } from "../support/payloads/music.js";
import { MEALDB_SEARCH_PASTA, mealDbText } from "../support/payloads/recipes.js";
import { runMarvin, serverEnv } from "../support/run-marvin.js";

describe("music and recipe tools in the built CLI", () => {
  test("spaces parallel MusicBrainz calls a second apart and flags a recipe against the profile's diet", async ({
    home,
    llm,
    httpServers,
  }) => {
    const profile = join(home, ".config", "local-finder", "profiles", "main");
    mkdirSync(profile, { recursive: true });
    writeFileSync(join(profile, "preferences.yaml"), "dietary:\n  - vegetarian\n");
    const arrivals: number[] = [];
    const musicBrainz = await httpServers.start((request, response) => {
      arrivals.push(performance.now());
      const recordings = request.url.startsWith("/ws/2/recording");
      sendJson(response, recordings ? MUSICBRAINZ_RECORDING_SEARCH : MUSICBRAINZ_ARTIST_SEARCH);
    });
    const mealDb = await httpServers.start((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(mealDbText(MEALDB_SEARCH_PASTA));
    });
    const server = await llm([
      {
        toolCalls: [
          { name: "music_search", arguments: { query: "radiohead" } },
          { name: "music_search", arguments: { query: "creep", entity: "song" } },
          { name: "recipe_search", arguments: { query: "pasta" } },
        ],
      },
      { text: "Radiohead, Creep, and the penne suits you." },
    ]);
    const env = serverEnv(server.url, home, {
      MARVIN_MUSICBRAINZ_URL: musicBrainz.origin,
      MARVIN_MEALDB_URL: mealDb.origin,
    });
    const run = await runMarvin(["--non-interactive", "--prompt", "Radiohead, Creep, and a pasta dish?"], {
      env,
      cwd: home,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Radiohead, Creep, and the penne suits you\.\n$/);
    expect(arrivals).toHaveLength(2);
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(900);
    const results = server.requests[1]!.body.messages.filter((message) => message.role === "tool");
    const texts = results.map((message) => String(message.content));
    expect(texts[0]).toMatch(/^MusicBrainz artists matching 'radiohead'.*\n1\. Radiohead \(Group, GB United Kingdom/);
    expect(texts[1]).toMatch(/^MusicBrainz recordings matching 'creep'/);
    expect(texts[2]).toContain("⚠ not vegetarian: category Seafood, tuna");
  });
});
