import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type LlmServer, startLlmServer } from "../support/llm-server.js";
import { LocalHttpServers, sendJson } from "../support/local-http-server.js";
import { MUSICBRAINZ_ARTIST_SEARCH, MUSICBRAINZ_RECORDING_SEARCH } from "../support/payloads/music.js";
import { MEALDB_SEARCH_PASTA, mealDbText } from "../support/payloads/recipes.js";
import { runMarvin, serverEnv, tempDir } from "../support/run-marvin.js";

const services = new LocalHttpServers();
let llm: LlmServer | undefined;
let home: { path: string; cleanup: () => void };
beforeEach(() => {
  home = tempDir("marvin-home-");
});
afterEach(async () => {
  await llm?.close();
  await services.closeAll();
  home.cleanup();
});

describe("music and recipe tools in the built CLI", () => {
  it("spaces parallel MusicBrainz calls a second apart and flags a recipe against the profile's diet", async () => {
    const profile = join(home.path, ".config", "local-finder", "profiles", "main");
    mkdirSync(profile, { recursive: true });
    writeFileSync(join(profile, "preferences.yaml"), "dietary:\n  - vegetarian\n");
    const arrivals: number[] = [];
    const musicBrainz = await services.start((request, response) => {
      arrivals.push(performance.now());
      const recordings = request.url.startsWith("/ws/2/recording");
      sendJson(response, recordings ? MUSICBRAINZ_RECORDING_SEARCH : MUSICBRAINZ_ARTIST_SEARCH);
    });
    const mealDb = await services.start((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(mealDbText(MEALDB_SEARCH_PASTA));
    });
    llm = await startLlmServer([
      {
        toolCalls: [
          { name: "music_search", arguments: { query: "radiohead" } },
          { name: "music_search", arguments: { query: "creep", entity: "song" } },
          { name: "recipe_search", arguments: { query: "pasta" } },
        ],
      },
      { text: "Radiohead, Creep, and the penne suits you." },
    ]);
    const env = serverEnv(llm.url, home.path, {
      MARVIN_MUSICBRAINZ_URL: musicBrainz.origin,
      MARVIN_MEALDB_URL: mealDb.origin,
    });
    const run = await runMarvin(["--non-interactive", "--prompt", "Radiohead, Creep, and a pasta dish?"], {
      env,
      cwd: home.path,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Radiohead, Creep, and the penne suits you\.\n$/);
    expect(arrivals).toHaveLength(2);
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(900);
    const results = llm.requests[1]!.body.messages.filter((message) => message.role === "tool");
    const texts = results.map((message) => String(message.content));
    expect(texts[0]).toMatch(/^MusicBrainz artists matching 'radiohead'.*\n1\. Radiohead \(Group, GB United Kingdom/);
    expect(texts[1]).toMatch(/^MusicBrainz recordings matching 'creep'/);
    expect(texts[2]).toContain("⚠ not vegetarian: category Seafood, tuna");
  });
});
