import { z } from "zod";
import { defineTool, ToolError } from "../../kit/define-tool.js";
import { resultLimit } from "../../kit/lenient-parameters.js";
import { formatSearch, trackLine } from "./format.js";
import { finishLogin, startLogin } from "./login.js";
import { addToPlaylist, bestTrack, createPlaylist, searchSpotify, type Track } from "./web-api.js";

/** A playlist id, `spotify:playlist:<id>` or an open.spotify.com link → the id. */
function playlistIdOf(text: string): string {
  const trimmed = text.trim();
  const id =
    /^spotify:playlist:([A-Za-z0-9]+)$/.exec(trimmed)?.[1] ??
    /open\.spotify\.com\/(?:[a-z-]+\/)?playlist\/([A-Za-z0-9]+)/.exec(trimmed)?.[1] ??
    (/^[A-Za-z0-9]+$/.test(trimmed) ? trimmed : undefined);
  if (!id)
    throw new ToolError(`'${text}' is not a Spotify playlist id, URI or link (spotify_create_playlist gives one).`);
  return id;
}

/** Each query is one search request: a bound on how long one call takes. */
const MAX_TRACK_QUERIES = 50;

export const spotifyTools = [
  defineTool({
    name: "spotify_auth",
    description:
      "Connect Marvin to the user's Spotify account (OAuth with PKCE). Without auth_code: returns a login URL for " +
      "the user to open; the login finishes by itself when the browser comes back. If the browser cannot reach " +
      "this machine, call again with auth_code = the code or the whole redirect URL the browser shows.",
    parameters: z.object({
      auth_code: z.string().default("").describe("The code, or the redirect URL with ?code=…, from the browser"),
    }),
    effect: "write",
    handler: async ({ auth_code }, context) => {
      if (auth_code.trim()) {
        const scopes = await finishLogin(context, auth_code);
        return `Connected to Spotify (allowed: ${scopes}). Playlists can be created and filled now.`;
      }
      const { url, redirectUri } = await startLogin(context);
      return [
        "Ask the user to open this address and approve Marvin:",
        url,
        `Spotify then sends the browser to ${redirectUri}, and Marvin finishes the login by itself (within 10 ` +
          "minutes). If that page does not load because Marvin runs on another machine, the user copies the address " +
          "the browser shows and you call spotify_auth with it as auth_code.",
      ].join("\n");
    },
  }),
  defineTool({
    name: "spotify_search",
    description: "Search Spotify for tracks, artists, albums or playlists: names, artists, Spotify URIs and links.",
    parameters: z.object({
      query: z.string().trim().min(1).describe('e.g. "Paranoid Android", "artist:Radiohead year:1997"'),
      search_type: z.enum(["track", "artist", "album", "playlist"]).default("track"),
      max_results: resultLimit(10, 10, "Spotify gives at most 10"),
    }),
    effect: "read",
    handler: async ({ query, search_type, max_results }, context) =>
      formatSearch(query, await searchSpotify(context, search_type, query, max_results)),
  }),
  defineTool({
    name: "spotify_create_playlist",
    description: "Create an empty playlist in the connected Spotify account; gives its id for spotify_add_tracks.",
    parameters: z.object({
      name: z.string().trim().min(1),
      description: z.string().default(""),
      public: z.boolean().default(false),
    }),
    effect: "write",
    handler: async (details, context) => {
      const playlist = await createPlaylist(context, details);
      const link = playlist.external_urls?.spotify ? `\nLink: ${playlist.external_urls.spotify}` : "";
      const visibility = playlist.public ? "public" : "private";
      return `Created the ${visibility} playlist '${playlist.name}'.\nPlaylist id: ${playlist.id}${link}`;
    },
  }),
  defineTool({
    name: "spotify_add_tracks",
    description:
      'Add tracks to a Spotify playlist by free-text queries ("Karma Police Radiohead"): each query\'s best match ' +
      "is added; queries without a match are reported.",
    parameters: z.object({
      playlist_id: z.string().describe("Id, spotify:playlist: URI or link of the playlist"),
      track_queries: z.array(z.string().trim().min(1)).min(1).max(MAX_TRACK_QUERIES),
    }),
    effect: "write",
    timeoutMs: 120_000,
    handler: async ({ playlist_id, track_queries }, context) => {
      const id = playlistIdOf(playlist_id);
      const found: Track[] = [];
      const missing: string[] = [];
      for (const query of track_queries) {
        const track = await bestTrack(context, query);
        if (track) found.push(track);
        else missing.push(query);
      }
      const notFound = missing.length
        ? [`Not found on Spotify: ${missing.map((query) => `'${query}'`).join(", ")}`]
        : [];
      if (found.length === 0) return ["Nothing was added: no query matched a track.", ...notFound].join("\n");
      await addToPlaylist(
        context,
        id,
        found.map((track) => track.uri),
      );
      const added = found.map((track, index) => `${index + 1}. ${trackLine(track)}`);
      return [`Added ${found.length} of ${track_queries.length} tracks to playlist ${id}:`, ...added, ...notFound].join(
        "\n",
      );
    },
  }),
];
