import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "../support/fixtures.js";
import type { LlmServer, Script } from "../support/llm-server.js";
import { sendJson } from "../support/local-http-server.js";
import { MUSICBRAINZ_ARTIST_SEARCH, MUSICBRAINZ_RECORDING_SEARCH } from "../support/payloads/music.js";
import { MEALDB_SEARCH_PASTA, mealDbText } from "../support/payloads/recipes.js";
import { INVALID_GRANT, tokenAnswer } from "../support/payloads/spotify.js";
import { runMarvin, serverEnv } from "../support/run-marvin.js";

/** One non-interactive run in which the scripted model calls `tool` once; returns what the tool answered. */
async function runTool(
  { home, llm, env }: { home: string; llm: (script: Script[]) => Promise<LlmServer>; env: Record<string, string> },
  tool: string,
  args: Record<string, unknown>,
): Promise<string> {
  const server = await llm([{ toolCalls: [{ name: tool, arguments: args }] }, { text: "Done." }]);
  const run = await runMarvin(["--non-interactive", "--prompt", `Call ${tool}.`], {
    env: serverEnv(server.url, home, env),
    cwd: home,
  });
  expect(run.code, run.stderr).toBe(0);
  const results = server.requests.at(-1)!.body.messages.filter((message) => message.role === "tool");
  return String(results[0]!.content);
}

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

describe("Spotify login in the built CLI", () => {
  test("a code pasted in a later run finishes the login an earlier run started", async ({ home, llm, httpServers }) => {
    const challenges = new Map<string, string>();
    const accounts = await httpServers.start((request, response) => {
      const form = Object.fromEntries(new URLSearchParams(request.body));
      const challenge = createHash("sha256")
        .update(form.code_verifier ?? "")
        .digest("base64url");
      if (challenges.get(form.code ?? "") !== challenge) return sendJson(response, INVALID_GRANT, 400);
      sendJson(response, tokenAnswer("BQ-later-run", "AQ-refresh"));
    });
    const env = {
      SPOTIFY_CLIENT_ID: "5f573c9620494bae87890c0f08a60293",
      MARVIN_SPOTIFY_ACCOUNTS_URL: accounts.origin,
      MARVIN_SPOTIFY_CALLBACK_PORT: "0",
    };

    const started = await runTool({ home, llm, env }, "spotify_auth", {});
    const login = new URL(/^(http\S+\/authorize\?\S+)$/m.exec(started)![1]!).searchParams;
    const profile = join(home, ".config", "local-finder", "profiles", "main");
    expect((await stat(join(profile, "pending_logins.json"))).mode & 0o777).toBe(0o600);

    // The user approves in a browser elsewhere; Spotify hands that browser a code for this login.
    challenges.set("AQDfrom-the-browser", login.get("code_challenge")!);
    const pasted = `${login.get("redirect_uri")}?code=AQDfrom-the-browser&state=${login.get("state")}`;
    expect(await runTool({ home, llm, env }, "spotify_auth", { auth_code: pasted })).toBe(
      "Connected to Spotify (allowed: playlist-modify-private playlist-modify-public). " +
        "Playlists can be created and filled now.",
    );
    expect(Object.fromEntries(new URLSearchParams(accounts.requests[0]!.body))).toMatchObject({
      grant_type: "authorization_code",
      code: "AQDfrom-the-browser",
      redirect_uri: login.get("redirect_uri"),
    });
    const saved = JSON.parse(await readFile(join(profile, "tokens.json"), "utf8"));
    expect(saved.spotify).toMatchObject({ access_token: "BQ-later-run", refresh_token: "AQ-refresh" });
    expect(JSON.parse(await readFile(join(profile, "pending_logins.json"), "utf8"))).toEqual({});
  });
});
