import { createHash } from "node:crypto";
import { readFile, stat, writeFile } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import { dirname, join } from "node:path";
import { describe, expect, test } from "../../../../tests/support/fixtures.js";
import type { Handler, LocalHttpServer, SeenRequest } from "../../../../tests/support/local-http-server.js";
import { sendJson } from "../../../../tests/support/local-http-server.js";
import {
  ARTIST_SEARCH,
  createdPlaylist,
  INVALID_GRANT,
  KARMA_POLICE,
  PARANOID_ANDROID,
  PLAYLIST_SEARCH,
  REFRESH_REVOKED,
  SERVER_ERROR,
  SNAPSHOT,
  TOKEN_EXPIRED,
  tokenAnswer,
  trackSearch,
} from "../../../../tests/support/payloads/spotify.js";
import type { ToolHarness, ToolHarnessPool } from "../../../../tests/support/tool-harness.js";

const CLIENT_ID = "5f573c9620494bae87890c0f08a60293";

interface Fixtures {
  harnesses: ToolHarnessPool;
  httpServers: { start(handler: Handler): Promise<LocalHttpServer> };
  home: string;
}

const base64url = (bytes: Buffer) => bytes.toString("base64url");
const form = (request: SeenRequest) => Object.fromEntries(new URLSearchParams(request.body));

/**
 * A local Spotify: the accounts service checks the PKCE verifier against the challenge the
 * login URL carried, hands out numbered access tokens and refreshes them; the Web API accepts
 * only live access tokens and keeps the playlists it was asked to create and fill.
 */
class LocalSpotify {
  accounts!: LocalHttpServer;
  api!: LocalHttpServer;
  /** Authorization codes the "browser" got, with the login they belong to. */
  readonly codes = new Map<string, { challenge: string; redirectUri: string }>();
  readonly liveTokens = new Set<string>();
  readonly refreshTokens = new Set<string>();
  readonly playlistItems = new Map<string, string[]>();
  /** Track search answers by query. */
  readonly catalogue = new Map<string, unknown[]>();
  apiFailure: { status: number; body: unknown; headers?: Record<string, string> } | undefined;
  revoked = false;
  private issued = 0;

  async start(fixtures: Fixtures): Promise<void> {
    this.accounts = await fixtures.httpServers.start((request, response) => this.token(request, response));
    this.api = await fixtures.httpServers.start((request, response) => this.webApi(request, response));
  }

  env(extra: Record<string, string> = {}) {
    return {
      SPOTIFY_CLIENT_ID: CLIENT_ID,
      MARVIN_SPOTIFY_ACCOUNTS_URL: this.accounts.origin,
      MARVIN_SPOTIFY_API_URL: this.api.origin,
      MARVIN_SPOTIFY_CALLBACK_PORT: "0",
      ...extra,
    };
  }

  private issue(withRefresh: boolean) {
    this.issued++;
    const access = `BQ-access-${this.issued}`;
    this.liveTokens.add(access);
    const refresh = withRefresh ? `AQ-refresh-${this.issued}` : undefined;
    if (refresh) this.refreshTokens.add(refresh);
    return tokenAnswer(access, refresh);
  }

  private token(request: SeenRequest, response: ServerResponse): void {
    const body = form(request);
    if (request.url !== "/api/token" || request.method !== "POST")
      return sendJson(response, { error: "not_found" }, 404);
    if (body.client_id !== CLIENT_ID) return sendJson(response, { error: "invalid_client" }, 400);
    if (body.grant_type === "authorization_code") {
      const login = this.codes.get(body.code ?? "");
      if (!login || login.redirectUri !== body.redirect_uri) return sendJson(response, INVALID_GRANT, 400);
      const challenge = base64url(
        createHash("sha256")
          .update(body.code_verifier ?? "")
          .digest(),
      );
      if (challenge !== login.challenge) {
        return sendJson(response, { error: "invalid_grant", error_description: "code_verifier was incorrect" }, 400);
      }
      this.codes.delete(body.code!);
      return sendJson(response, this.issue(true));
    }
    if (body.grant_type === "refresh_token" && !this.revoked && this.refreshTokens.has(body.refresh_token ?? "")) {
      return sendJson(response, this.issue(false));
    }
    return sendJson(response, REFRESH_REVOKED, 400);
  }

  private webApi(request: SeenRequest, response: ServerResponse): void {
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1] ?? "";
    if (!this.liveTokens.has(token)) return sendJson(response, TOKEN_EXPIRED, 401);
    const failure = this.apiFailure;
    if (failure) return sendJson(response, failure.body, failure.status, failure.headers);
    const url = new URL(request.url, "http://spotify");
    if (request.method === "GET" && url.pathname === "/v1/search") {
      const query = url.searchParams.get("q") ?? "";
      const type = url.searchParams.get("type");
      if (type === "artist") return sendJson(response, ARTIST_SEARCH);
      if (type === "playlist") return sendJson(response, PLAYLIST_SEARCH);
      const items = this.catalogue.get(query) ?? [];
      return sendJson(
        response,
        trackSearch(query, items.slice(0, Number(url.searchParams.get("limit"))), items.length),
      );
    }
    if (request.method === "POST" && url.pathname === "/v1/me/playlists") {
      const { name, description, public: isPublic } = JSON.parse(request.body);
      const id = `3cEYpjA9oz9GiPac4AsH4n${this.playlistItems.size}`;
      this.playlistItems.set(id, []);
      return sendJson(response, createdPlaylist(id, name, description, isPublic), 201);
    }
    const items = /^\/v1\/playlists\/([^/]+)\/items$/.exec(url.pathname);
    if (request.method === "POST" && items && this.playlistItems.has(items[1]!)) {
      this.playlistItems.get(items[1]!)!.push(...JSON.parse(request.body).uris);
      return sendJson(response, SNAPSHOT, 201);
    }
    sendJson(response, { error: { status: 404, message: "Resource not found" } }, 404);
  }
}

async function setUp(fixtures: Fixtures, extraEnv: Record<string, string> = {}) {
  const { harnesses, home } = fixtures;
  const spotify = new LocalSpotify();
  await spotify.start(fixtures);
  const harness = await harnesses.open({ home, env: spotify.env(extraEnv) });
  const tokensPath = join(home, ".config", "local-finder", "profiles", "main", "tokens.json");
  return { spotify, harness, tokensPath };
}

/** Starts a login and returns the authorize URL's parameters. */
async function startLogin(harness: ToolHarness) {
  const text = await harness.ok("spotify_auth", {});
  const url = new URL(/^(http\S+\/authorize\?\S+)$/m.exec(text)![1]!);
  return { text, url, params: Object.fromEntries(url.searchParams) };
}

/** What the browser does after the user approves: Spotify redirects it to Marvin's callback. */
async function approveInBrowser(spotify: LocalSpotify, params: Record<string, string>, code: string) {
  spotify.codes.set(code, { challenge: params.code_challenge!, redirectUri: params.redirect_uri! });
  const back = await fetch(`${params.redirect_uri}?code=${code}&state=${params.state}`);
  return { status: back.status, page: await back.text() };
}

async function connected(fixtures: Fixtures, extraEnv: Record<string, string> = {}) {
  const context = await setUp(fixtures, extraEnv);
  const { params } = await startLogin(context.harness);
  await approveInBrowser(context.spotify, params, "AQDcode-connected");
  return context;
}

const savedTokens = async (path: string) => JSON.parse(await readFile(path, "utf8")).spotify;
/** The profile's pending_logins.json, beside its tokens.json. */
const pendingLoginsPath = (tokensPath: string) => join(dirname(tokensPath), "pending_logins.json");
const pendingLogins = async (tokensPath: string) => JSON.parse(await readFile(pendingLoginsPath(tokensPath), "utf8"));

describe("spotify_auth", () => {
  test("logs in with PKCE through the local callback, then creates and fills a playlist", async ({
    harnesses,
    httpServers,
    home,
  }) => {
    const { spotify, harness, tokensPath } = await setUp({ harnesses, httpServers, home });
    const { text, url, params } = await startLogin(harness);
    expect(url.origin + url.pathname).toBe(`${spotify.accounts.origin}/authorize`);
    expect(params).toMatchObject({
      response_type: "code",
      client_id: CLIENT_ID,
      code_challenge_method: "S256",
      scope: "playlist-modify-private playlist-modify-public",
    });
    expect(params.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.state).toMatch(/^[0-9a-f]{32}$/);
    expect(params.redirect_uri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(text).toContain(`Spotify then sends the browser to ${params.redirect_uri}`);
    expect(await harness.ok("spotify_auth", {})).toBe(text);

    const browser = await approveInBrowser(spotify, params, "AQDcode-1");
    expect(browser.status).toBe(200);
    expect(browser.page).toContain("Marvin is connected to Spotify");
    const exchange = form(spotify.accounts.requests[0]!);
    expect(exchange).toMatchObject({ grant_type: "authorization_code", code: "AQDcode-1", client_id: CLIENT_ID });
    expect((await stat(tokensPath)).mode & 0o777).toBe(0o600);
    const tokens = await savedTokens(tokensPath);
    expect(tokens).toMatchObject({ access_token: "BQ-access-1", refresh_token: "AQ-refresh-1", token_type: "Bearer" });
    expect(tokens.expires_at).toBeGreaterThan(Date.now() / 1000 + 3500);
    await expect(fetch(params.redirect_uri!)).rejects.toThrow();

    const created = await harness.ok("spotify_create_playlist", { name: "Road trip", description: "Windows down" });
    expect(created).toBe(
      "Created the private playlist 'Road trip'.\nPlaylist id: 3cEYpjA9oz9GiPac4AsH4n0\n" +
        "Link: https://open.spotify.com/playlist/3cEYpjA9oz9GiPac4AsH4n0",
    );
    expect(JSON.parse(spotify.api.requests[0]!.body)).toEqual({
      name: "Road trip",
      description: "Windows down",
      public: false,
    });
    expect(spotify.api.requests[0]!.headers.authorization).toBe("Bearer BQ-access-1");

    // The access token runs out: the next call refreshes it first, keeping the refresh token.
    await writeFile(
      tokensPath,
      JSON.stringify({ spotify: { ...tokens, expires_at: Math.floor(Date.now() / 1000) - 5 } }),
    );
    spotify.catalogue.set("paranoid android", [PARANOID_ANDROID]);
    spotify.catalogue.set("karma police radiohead", [KARMA_POLICE, PARANOID_ANDROID]);
    const added = await harness.ok("spotify_add_tracks", {
      playlist_id: "https://open.spotify.com/playlist/3cEYpjA9oz9GiPac4AsH4n0?si=f00",
      track_queries: ["paranoid android", "no such song anywhere", "karma police radiohead"],
    });
    expect(added).toBe(
      [
        "Added 2 of 3 tracks to playlist 3cEYpjA9oz9GiPac4AsH4n0:",
        "1. Paranoid Android — Radiohead, OK Computer (1997), 6:23",
        "2. Karma Police — Radiohead, OK Computer (1997), 4:24",
        "Not found on Spotify: 'no such song anywhere'",
      ].join("\n"),
    );
    expect(form(spotify.accounts.requests[1]!)).toEqual({
      grant_type: "refresh_token",
      refresh_token: "AQ-refresh-1",
      client_id: CLIENT_ID,
    });
    expect(spotify.playlistItems.get("3cEYpjA9oz9GiPac4AsH4n0")).toEqual([PARANOID_ANDROID.uri, KARMA_POLICE.uri]);
    expect(await savedTokens(tokensPath)).toMatchObject({ access_token: "BQ-access-2", refresh_token: "AQ-refresh-1" });
    const searches = spotify.api.requests.filter((request) => request.url.startsWith("/v1/search"));
    expect(new URL(searches[0]!.url, "http://x").searchParams.toString()).toBe("q=paranoid+android&type=track&limit=1");
  });

  test("finishes with a pasted redirect URL, or a bare code, when the browser cannot come back", async ({
    harnesses,
    httpServers,
    home,
  }) => {
    const { spotify, harness, tokensPath } = await setUp({ harnesses, httpServers, home });
    const { params } = await startLogin(harness);
    spotify.codes.set("AQDpasted", { challenge: params.code_challenge!, redirectUri: params.redirect_uri! });
    const pasted = `${params.redirect_uri}?code=AQDpasted&state=${params.state}`;
    expect(await harness.ok("spotify_auth", { auth_code: pasted })).toBe(
      "Connected to Spotify (allowed: playlist-modify-private playlist-modify-public). " +
        "Playlists can be created and filled now.",
    );
    expect((await savedTokens(tokensPath)).access_token).toBe("BQ-access-1");
    await expect(fetch(params.redirect_uri!)).rejects.toThrow();
    expect(await pendingLogins(tokensPath)).toEqual({});

    const second = await startLogin(harness);
    expect(second.params.state).not.toBe(params.state);
    spotify.codes.set("AQDbare", {
      challenge: second.params.code_challenge!,
      redirectUri: second.params.redirect_uri!,
    });
    await harness.ok("spotify_auth", { auth_code: " AQDbare " });
    expect((await savedTokens(tokensPath)).access_token).toBe("BQ-access-2");
  });

  test("refuses a redirect URL of another login, and a code Spotify does not accept", async ({
    harnesses,
    httpServers,
    home,
  }) => {
    const { harness, tokensPath } = await setUp({ harnesses, httpServers, home });
    const { params } = await startLogin(harness);
    expect(await harness.failure("spotify_auth", { auth_code: `${params.redirect_uri}?code=X&state=other` })).toBe(
      "Error in spotify_auth: That redirect URL belongs to another login (its state does not match). " +
        "Paste the newest one.",
    );
    expect(await harness.failure("spotify_auth", { auth_code: "AQDnot-issued" })).toBe(
      "Error in spotify_auth: Spotify did not accept the login code (Invalid authorization code). A code works " +
        "once and only for a few minutes: run spotify_auth again for a fresh login.",
    );
    await expect(stat(tokensPath)).rejects.toThrow();
    expect(await harness.failure("spotify_auth", { auth_code: "AQDlate" })).toMatch(/No Spotify login is waiting/);
  });

  test("tells the browser when the user declined, and keeps nothing", async ({ harnesses, httpServers, home }) => {
    const { harness, tokensPath } = await setUp({ harnesses, httpServers, home });
    const { params } = await startLogin(harness);
    const back = await fetch(`${params.redirect_uri}?error=access_denied&state=${params.state}`);
    expect(await back.text()).toContain("Spotify said: access_denied");
    await expect(stat(tokensPath)).rejects.toThrow();
    expect(await pendingLogins(tokensPath)).toEqual({});
  });

  test("keeps a started login for a later run, owner-only, and refuses it once it has expired", async ({
    harnesses,
    httpServers,
    home,
  }) => {
    const { spotify, harness, tokensPath } = await setUp({ harnesses, httpServers, home });
    const { url, params } = await startLogin(harness);
    expect((await stat(pendingLoginsPath(tokensPath))).mode & 0o777).toBe(0o600);
    const { spotify: pending } = await pendingLogins(tokensPath);
    expect(pending).toMatchObject({ url: url.href, state: params.state, redirect_uri: params.redirect_uri });
    expect(base64url(createHash("sha256").update(pending.verifier).digest())).toBe(params.code_challenge);
    expect(pending.expires_at - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(pending.expires_at - Date.now()).toBeLessThanOrEqual(10 * 60_000);

    const expired = { spotify: { ...pending, expires_at: Date.now() - 1000 } };
    await writeFile(pendingLoginsPath(tokensPath), JSON.stringify(expired));
    spotify.codes.set("AQDtoo-late", { challenge: params.code_challenge!, redirectUri: params.redirect_uri! });
    expect(await harness.failure("spotify_auth", { auth_code: "AQDtoo-late" })).toBe(
      "Error in spotify_auth: The Spotify login expired: a login waits 10 minutes for its code. Call spotify_auth " +
        "without auth_code for a new login address.",
    );
    expect(spotify.accounts.requests).toHaveLength(0);
    expect(await pendingLogins(tokensPath)).toEqual({});
    await expect(fetch(params.redirect_uri!)).rejects.toThrow();
  });

  test("says how to get a client id when SPOTIFY_CLIENT_ID is not set", async ({ harnesses, httpServers, home }) => {
    const { harness } = await setUp(
      { harnesses, httpServers, home },
      { SPOTIFY_CLIENT_ID: "", MARVIN_SPOTIFY_CALLBACK_PORT: "" },
    );
    expect(await harness.failure("spotify_auth", {})).toBe(
      "Error in spotify_auth: Spotify needs SPOTIFY_CLIENT_ID: create an app at " +
        "https://developer.spotify.com/dashboard, " +
        "add the redirect URI http://127.0.0.1:8888/callback to it, and set SPOTIFY_CLIENT_ID to the app's client ID " +
        "before starting Marvin.",
    );
  });
});

describe("spotify_search", () => {
  test("lists tracks with artist, album, length, URI and link", async ({ harnesses, httpServers, home }) => {
    const { spotify, harness } = await connected({ harnesses, httpServers, home });
    spotify.catalogue.set("radiohead", [PARANOID_ANDROID, KARMA_POLICE]);
    expect(await harness.ok("spotify_search", { query: "radiohead", max_results: 2 })).toBe(
      [
        "Spotify tracks matching 'radiohead' (2 of 2):",
        "1. Paranoid Android — Radiohead, OK Computer (1997), 6:23",
        `   ${PARANOID_ANDROID.uri}`,
        `   ${PARANOID_ANDROID.external_urls.spotify}`,
        "2. Karma Police — Radiohead, OK Computer (1997), 4:24",
        `   ${KARMA_POLICE.uri}`,
        `   ${KARMA_POLICE.external_urls.spotify}`,
      ].join("\n"),
    );
  });

  test("lists artists and playlists, skipping the null entries Spotify sends", async ({
    harnesses,
    httpServers,
    home,
  }) => {
    const { harness } = await connected({ harnesses, httpServers, home });
    expect(await harness.ok("spotify_search", { query: "radiohead", search_type: "artist" })).toContain(
      "1. Radiohead (art rock, alternative rock)\n   spotify:artist:4Z8W4fKeB5YxbusRsdQVPb\n" +
        "   https://open.spotify.com/artist/4Z8W4fKeB5YxbusRsdQVPb\n2. Radiohead Tribute Band\n",
    );
    expect(await harness.ok("spotify_search", { query: "radiohead", search_type: "playlist" })).toBe(
      [
        "Spotify playlists matching 'radiohead' (1 of 2):",
        "1. This Is Radiohead (by Spotify, 50 tracks)",
        "   spotify:playlist:37i9dQZF1DZ06evO1ZJgR3",
        "   https://open.spotify.com/playlist/37i9dQZF1DZ06evO1ZJgR3",
      ].join("\n"),
    );
  });

  test("says so when nothing matches", async ({ harnesses, httpServers, home }) => {
    const { harness } = await connected({ harnesses, httpServers, home });
    expect(await harness.ok("spotify_search", { query: "zzzz" })).toBe(
      "Spotify has no tracks matching 'zzzz'. Try other or fewer words.",
    );
  });

  test("refreshes and repeats once when Spotify answers 401", async ({ harnesses, httpServers, home }) => {
    const { spotify, harness, tokensPath } = await connected({ harnesses, httpServers, home });
    spotify.liveTokens.clear();
    expect(await harness.ok("spotify_search", { query: "zzzz" })).toMatch(/^Spotify has no tracks/);
    expect(spotify.api.requests.map((request) => request.headers.authorization)).toEqual([
      "Bearer BQ-access-1",
      "Bearer BQ-access-2",
    ]);
    expect((await savedTokens(tokensPath)).access_token).toBe("BQ-access-2");
    spotify.liveTokens.clear();
    spotify.revoked = true;
    expect(await harness.failure("spotify_search", { query: "zzzz" })).toBe(
      "Error in spotify_search: Spotify no longer accepts Marvin's saved login (Refresh token revoked). " +
        "Run spotify_auth to connect again.",
    );
  });

  test("asks for spotify_auth first when not connected", async ({ harnesses, httpServers, home }) => {
    const { spotify, harness } = await setUp({ harnesses, httpServers, home });
    expect(await harness.failure("spotify_search", { query: "radiohead" })).toBe(
      "Error in spotify_search: Marvin is not connected to Spotify yet: run spotify_auth first.",
    );
    expect(spotify.api.requests).toHaveLength(0);
  });

  test("hands on a server error, a rate limit and a refusal", async ({ harnesses, httpServers, home }) => {
    const { spotify, harness } = await connected({ harnesses, httpServers, home });
    spotify.apiFailure = { status: 500, body: SERVER_ERROR };
    expect(await harness.failure("spotify_search", { query: "x" })).toMatch(
      /^Error in spotify_search: Spotify answered HTTP 500 \(Internal Server Error\): "Server error\." — try again/,
    );
    const limited = { error: { status: 429, message: "API rate limit exceeded" } };
    spotify.apiFailure = { status: 429, body: limited, headers: { "retry-after": "30" } };
    expect(await harness.failure("spotify_search", { query: "x" })).toBe(
      "Error in spotify_search: Spotify is limiting how often Marvin may ask (HTTP 429) — try again in 30s.",
    );
    spotify.apiFailure = { status: 403, body: { error: { status: 403, message: "Forbidden" } } };
    expect(await harness.failure("spotify_search", { query: "x" })).toBe(
      'Error in spotify_search: Spotify answered HTTP 403: it refuses this for the connected account ("Forbidden"): ' +
        "apps in Development Mode only serve the users added to the app, and a playlist can only be changed by its " +
        "owner.",
    );
  });

  test("refuses an answer that is not a search page", async ({ harnesses, httpServers, home }) => {
    const { spotify, harness } = await connected({ harnesses, httpServers, home });
    spotify.apiFailure = { status: 200, body: { tracks: { items: "none" } } };
    expect(await harness.failure("spotify_search", { query: "x" })).toMatch(
      /^Error in spotify_search: Spotify sent an answer Marvin does not understand: tracks\.total: .*MARVIN_SPOTIFY_API_URL=/,
    );
  });

  test("gives up on a server that does not answer", async ({ harnesses, httpServers, home }) => {
    const spotifyEnv = { MARVIN_HTTP_TIMEOUT: "0.3" };
    const { spotify } = await connected({ harnesses, httpServers, home }, spotifyEnv);
    const silent = await httpServers.start(() => undefined);
    const slow = await harnesses.open({
      home: home,
      env: spotify.env({ ...spotifyEnv, MARVIN_SPOTIFY_API_URL: silent.origin }),
    });
    expect(await slow.failure("spotify_search", { query: "x" })).toBe(
      "Error in spotify_search: Spotify took longer than 0.3 s to answer — try again in a minute, or ask for less.",
    );
  });
});

describe("spotify_create_playlist and spotify_add_tracks", () => {
  test("create a public playlist when asked", async ({ harnesses, httpServers, home }) => {
    const { spotify, harness } = await connected({ harnesses, httpServers, home });
    expect(await harness.ok("spotify_create_playlist", { name: "Open", public: true })).toMatch(
      /^Created the public playlist 'Open'\./,
    );
    expect(JSON.parse(spotify.api.requests[0]!.body)).toEqual({ name: "Open", description: "", public: true });
  });

  test("add nothing when no query matches, and refuse what is not a playlist", async ({
    harnesses,
    httpServers,
    home,
  }) => {
    const { spotify, harness } = await connected({ harnesses, httpServers, home });
    expect(await harness.ok("spotify_add_tracks", { playlist_id: "spotify:playlist:abc", track_queries: ["zz"] })).toBe(
      "Nothing was added: no query matched a track.\nNot found on Spotify: 'zz'",
    );
    expect(await harness.failure("spotify_add_tracks", { playlist_id: "my list", track_queries: ["zz"] })).toBe(
      "Error in spotify_add_tracks: 'my list' is not a Spotify playlist id, URI or link " +
        "(spotify_create_playlist gives one).",
    );
    spotify.catalogue.set("karma", [KARMA_POLICE]);
    expect(await harness.failure("spotify_add_tracks", { playlist_id: "unknown1", track_queries: ["karma"] })).toMatch(
      /^Error in spotify_add_tracks: Spotify answered HTTP 404 \(Not Found\): "Resource not found"/,
    );
  });

  test("refuse a created playlist answer without an id", async ({ harnesses, httpServers, home }) => {
    const { spotify, harness } = await connected({ harnesses, httpServers, home });
    spotify.apiFailure = { status: 201, body: { name: "Road trip" } };
    expect(await harness.failure("spotify_create_playlist", { name: "Road trip" })).toMatch(
      /^Error in spotify_create_playlist: Spotify sent an answer Marvin does not understand: id: /,
    );
  });
});
