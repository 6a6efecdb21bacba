import type { ServerResponse } from "node:http";
import { describe, expect } from "../../../../tests/support/fixtures.js";
import type { Handler } from "../../../../tests/support/local-http-server.js";
import { sendJson } from "../../../../tests/support/local-http-server.js";
import {
  CREEP_MBID,
  MUSICBRAINZ_ARTIST_LOOKUP,
  MUSICBRAINZ_ARTIST_SEARCH,
  MUSICBRAINZ_EMPTY_ARTIST_SEARCH,
  MUSICBRAINZ_NOT_FOUND,
  MUSICBRAINZ_RATE_LIMITED,
  MUSICBRAINZ_RECORDING_LOOKUP,
  MUSICBRAINZ_RECORDING_SEARCH,
  MUSICBRAINZ_RELEASE_LOOKUP,
  MUSICBRAINZ_RELEASE_SEARCH,
  OK_COMPUTER_MBID,
  RADIOHEAD_MBID,
} from "../../../../tests/support/payloads/music.js";
import { type ServerFor, test as serviceTest } from "../../../../tests/support/service-fixtures.js";

const answer =
  (body: unknown, status = 200): Handler =>
  (_request, response) =>
    sendJson(response, body, status);

const query = (url: string) => Object.fromEntries(new URL(url, "http://fixture").searchParams);
const path = (url: string) => new URL(url, "http://fixture").pathname;

const test = serviceTest.extend<{ musicBrainz: ServerFor }>({
  musicBrainz: async ({ withServer }, use) => use((handler, env) => withServer("MARVIN_MUSICBRAINZ_URL", handler, env)),
});

describe("music_search", () => {
  test("lists artists with type, country, life span and MBID, asking with Marvin's User-Agent", async ({
    musicBrainz,
  }) => {
    const { server, harness } = await musicBrainz(answer(MUSICBRAINZ_ARTIST_SEARCH));
    const text = await harness.ok("music_search", { query: "radiohead", max_results: 2 });
    expect(text).toBe(
      [
        "MusicBrainz artists matching 'radiohead' (2 of 2; look one up with music_lookup and its MBID):",
        "1. Radiohead (Group, GB United Kingdom, 1991 – present)",
        `   MBID ${RADIOHEAD_MBID}, match 100%`,
        "2. Radiohead Tribute (Person, 2001-03 – 2009, string quartet covers)",
        "   MBID f5cd8d9d-4a4d-4f37-9c5a-9e7b7c0f6c11, match 61%",
      ].join("\n"),
    );
    const [request] = server.requests;
    expect(path(request!.url)).toBe("/ws/2/artist");
    expect(query(request!.url)).toEqual({ query: "radiohead", limit: "2", fmt: "json" });
    expect(request!.headers["user-agent"]).toMatch(/^Marvin\/\d+\.\d+\.\d+\S* \(\+https:\/\/\S+\)$/);
  });

  test("searches releases for an album and recordings for a song", async ({ musicBrainz }) => {
    const { server, harness } = await musicBrainz((request, response) =>
      sendJson(
        response,
        path(request.url).endsWith("/release") ? MUSICBRAINZ_RELEASE_SEARCH : MUSICBRAINZ_RECORDING_SEARCH,
      ),
    );
    expect(await harness.ok("music_search", { query: "OK Computer", entity: "album" })).toBe(
      [
        "MusicBrainz releases matching 'OK Computer' (1 of 41; look one up with music_lookup and its MBID):",
        "1. OK Computer — Radiohead (Album, Official, 1997-05-21, GB, 12 tracks, CD)",
        `   MBID ${OK_COMPUTER_MBID}, match 100%`,
      ].join("\n"),
    );
    expect(await harness.ok("music_search", { query: "creep", entity: "song" })).toBe(
      [
        "MusicBrainz recordings matching 'creep' (2 of 312; look one up with music_lookup and its MBID):",
        "1. Creep — Radiohead (3:59, first released 1992-09-21, on Pablo Honey)",
        `   MBID ${CREEP_MBID}, match 100%`,
        "2. Creep — Scala & Kolacny Brothers feat. Radiohead",
        "   MBID 0d5c8a8e-3b1e-4c55-8f4e-8a0b5c4f2d90, match 88%",
      ].join("\n"),
    );
    expect(server.requests.map((request) => path(request.url))).toEqual(["/ws/2/release", "/ws/2/recording"]);
  });

  test("says so when nothing matches", async ({ musicBrainz }) => {
    const { harness } = await musicBrainz(answer(MUSICBRAINZ_EMPTY_ARTIST_SEARCH));
    expect(await harness.ok("music_search", { query: "xyzzy plugh" })).toBe(
      "MusicBrainz has no artists matching 'xyzzy plugh'. Try other or fewer words.",
    );
  });

  test("explains MusicBrainz's 503 as its rate limit, after one paced retry", async ({ musicBrainz }) => {
    const { server, harness } = await musicBrainz(answer(MUSICBRAINZ_RATE_LIMITED, 503));
    expect(await harness.failure("music_search", { query: "radiohead" })).toBe(
      "Error in music_search: MusicBrainz answered HTTP 503: it allows about one request a second and turns requests " +
        "away when busy. Wait a few seconds and ask again, with fewer lookups at once.",
    );
    expect(server.requests).toHaveLength(2);
  });

  test("hands on another server error", async ({ musicBrainz }) => {
    const { harness } = await musicBrainz(answer({ error: "Internal Server Error" }, 500));
    expect(await harness.failure("music_search", { query: "radiohead" })).toMatch(
      /^Error in music_search: MusicBrainz answered HTTP 500 \(Internal Server Error\): "Internal Server Error"/,
    );
  });

  test("refuses an answer that is not a search result, naming the setting", async ({ musicBrainz }) => {
    const { harness } = await musicBrainz((_request, response: ServerResponse) => {
      response.writeHead(200, { "content-type": "text/html" });
      response.end("<html><body>Maintenance</body></html>");
    });
    expect(await harness.failure("music_search", { query: "radiohead" })).toMatch(
      /^Error in music_search: MusicBrainz sent an answer Marvin does not understand: it sent a web page where JSON was expected\. Check that MARVIN_MUSICBRAINZ_URL=http:\/\/127\.0\.0\.1:\d+ points at MusicBrainz\.$/,
    );
  });

  test("gives up on a server that does not answer", async ({ musicBrainz }) => {
    const { harness } = await musicBrainz(() => undefined, {
      MARVIN_HTTP_TIMEOUT: "0.3",
    });
    expect(await harness.failure("music_search", { query: "radiohead" })).toBe(
      "Error in music_search: MusicBrainz took longer than 0.3 s to answer — try again in a minute, or ask for less.",
    );
  });

  test("queues parallel calls one second apart", async ({ musicBrainz }) => {
    const arrivals: number[] = [];
    const { harness } = await musicBrainz((_request, response) => {
      arrivals.push(performance.now());
      sendJson(response, MUSICBRAINZ_EMPTY_ARTIST_SEARCH);
    });
    await Promise.all([harness.call("music_search", { query: "a" }), harness.call("music_search", { query: "b" })]);
    expect(arrivals).toHaveLength(2);
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(900);
  });
});

describe("music_lookup", () => {
  test("gives an artist's release groups, oldest first, undated last", async ({ musicBrainz }) => {
    const { server, harness } = await musicBrainz(answer(MUSICBRAINZ_ARTIST_LOOKUP));
    expect(await harness.ok("music_lookup", { mbid: RADIOHEAD_MBID.toUpperCase() })).toBe(
      [
        "Radiohead (Group, GB United Kingdom, 1991 – present)",
        `MBID ${RADIOHEAD_MBID}`,
        "Release groups (oldest first):",
        "1. 1993-02-22 Pablo Honey [Album]",
        "2. 1997-05-21 OK Computer [Album]",
        "3. 2001-11-12 I Might Be Wrong: Live Recordings [Album + Live]",
        "4. undated Untitled demo",
      ].join("\n"),
    );
    expect(path(server.requests[0]!.url)).toBe(`/ws/2/artist/${RADIOHEAD_MBID}`);
    expect(query(server.requests[0]!.url)).toEqual({ inc: "release-groups", fmt: "json" });
  });

  test("gives a release's track list", async ({ musicBrainz }) => {
    const { server, harness } = await musicBrainz(answer(MUSICBRAINZ_RELEASE_LOOKUP));
    expect(await harness.ok("music_lookup", { mbid: OK_COMPUTER_MBID, entity: "album" })).toBe(
      [
        "OK Computer — Radiohead (Album, Official, 1997-05-21, GB, CD)",
        `MBID ${OK_COMPUTER_MBID}`,
        "CD:",
        "1. Airbag (4:44)",
        "2. Paranoid Android (6:23)",
        "3. Subterranean Homesick Alien",
      ].join("\n"),
    );
    expect(query(server.requests[0]!.url)).toEqual({ inc: "artist-credits recordings", fmt: "json" });
  });

  test("gives a recording and the releases it is on", async ({ musicBrainz }) => {
    const { server, harness } = await musicBrainz(answer(MUSICBRAINZ_RECORDING_LOOKUP));
    expect(await harness.ok("music_lookup", { mbid: CREEP_MBID, entity: "recording" })).toBe(
      [
        "Creep — Radiohead (3:59, first released 1992-09-21)",
        `MBID ${CREEP_MBID}`,
        "Appears on:",
        "1. Pablo Honey (Official, 1993-02-22, GB) — MBID cf1e5b2a-6c1d-4b8e-9c5f-0d0b2d6a7e21",
        "2. Creep (Official, 1992-09-21) — MBID d2e7f1a0-1b2c-4d3e-8f9a-0b1c2d3e4f50",
      ].join("\n"),
    );
    expect(path(server.requests[0]!.url)).toBe(`/ws/2/recording/${CREEP_MBID}`);
  });

  test("says which MBID MusicBrainz does not know", async ({ musicBrainz }) => {
    const { harness } = await musicBrainz(answer(MUSICBRAINZ_NOT_FOUND, 404));
    expect(await harness.failure("music_lookup", { mbid: CREEP_MBID, entity: "song" })).toBe(
      `Error in music_lookup: MusicBrainz answered HTTP 404: it has no recording with MBID ${CREEP_MBID}. ` +
        "Find the right MBID with music_search.",
    );
  });

  test("refuses what is not an MBID without asking", async ({ musicBrainz }) => {
    const { server, harness } = await musicBrainz(answer(MUSICBRAINZ_ARTIST_LOOKUP));
    expect(await harness.failure("music_lookup", { mbid: "Radiohead" })).toBe(
      "Error in music_lookup: 'Radiohead' is not a MusicBrainz ID (like a74b1b7f-71a5-4011-9441-d0b5e4122711). " +
        "Find one with music_search.",
    );
    expect(server.requests).toHaveLength(0);
  });

  test("refuses a lookup answer without the artist's fields", async ({ musicBrainz }) => {
    const { harness } = await musicBrainz(answer({ id: RADIOHEAD_MBID, "release-groups": "none" }));
    expect(await harness.failure("music_lookup", { mbid: RADIOHEAD_MBID })).toMatch(
      /^Error in music_lookup: MusicBrainz sent an answer Marvin does not understand: name: .*release-groups: /,
    );
  });
});
