import { z } from "zod";
import { loadOAuthTokens, type OAuthTokens, saveOAuthTokens } from "../../../state/oauth-tokens.js";
import { type ToolContext, ToolError } from "../../kit/define-tool.js";
import {
  type ExternalService,
  explainStatus,
  http,
  type QueryParams,
  ServiceError,
  type StatusAdvice,
} from "../../kit/http/index.js";
import { refreshTokens } from "./accounts.js";
import { configuredClientId, SPOTIFY_TOKENS } from "./login.js";

const SPOTIFY_API: ExternalService = {
  name: "Spotify",
  envVar: "MARVIN_SPOTIFY_API_URL",
  defaultUrl: "https://api.spotify.com",
};

/** Tokens this close to expiry are refreshed before use. */
const EXPIRY_MARGIN_SECONDS = 60;

interface Call {
  method: "GET" | "POST";
  path: string;
  query?: QueryParams;
  json?: unknown;
}

async function savedTokens(tokensPath: string): Promise<OAuthTokens> {
  const tokens = await loadOAuthTokens(tokensPath, SPOTIFY_TOKENS);
  if (!tokens) throw new ToolError("Marvin is not connected to Spotify yet: run spotify_auth first.");
  return tokens;
}

async function refreshed(context: ToolContext, tokensPath: string, tokens: OAuthTokens): Promise<OAuthTokens> {
  const fresh = await refreshTokens(context.env, configuredClientId(context), tokens);
  await saveOAuthTokens(tokensPath, SPOTIFY_TOKENS, fresh);
  return fresh;
}

const SPOTIFY_ADVICE: StatusAdvice = {
  403: (error) =>
    `it refuses this for the connected account${error.excerpt ? ` ("${error.excerpt}")` : ""}: apps in Development ` +
    "Mode only serve the users added to the app, and a playlist can only be changed by its owner.",
};

async function send<Schema extends z.ZodType>(
  context: ToolContext,
  call: Call,
  schema: Schema,
  accessToken: string,
): Promise<z.output<Schema>> {
  const target = { service: SPOTIFY_API, path: call.path, query: call.query };
  const headers = { authorization: `Bearer ${accessToken}`, accept: "application/json" };
  const response = await http(context).send(target, { method: call.method, headers, json: call.json });
  return response.json(schema);
}

/**
 * A Web API call with the profile's saved login: refreshed first when it is (nearly) expired, and
 * refreshed and repeated once when Spotify answers 401 anyway.
 */
async function spotify<Schema extends z.ZodType>(
  context: ToolContext,
  call: Call,
  schema: Schema,
): Promise<z.output<Schema>> {
  const tokensPath = context.profiles.paths(context.profileName).tokens;
  let tokens = await savedTokens(tokensPath);
  if (tokens.expires_at - EXPIRY_MARGIN_SECONDS <= Date.now() / 1000)
    tokens = await refreshed(context, tokensPath, tokens);
  try {
    return await send(context, call, schema, tokens.access_token);
  } catch (error) {
    if (!(error instanceof ServiceError && error.status === 401)) throw explainStatus(error, SPOTIFY_ADVICE);
  }
  tokens = await refreshed(context, tokensPath, tokens);
  try {
    return await send(context, call, schema, tokens.access_token);
  } catch (error) {
    throw explainStatus(error, SPOTIFY_ADVICE);
  }
}

const image = z.object({ url: z.string() });
const externalUrls = z.object({ spotify: z.string().optional() }).optional();
const artistRef = z.object({ name: z.string() });

const track = z.object({
  id: z.string(),
  name: z.string(),
  uri: z.string(),
  duration_ms: z.number().optional(),
  artists: z.array(artistRef),
  album: z.object({ name: z.string(), release_date: z.string().optional() }).optional(),
  external_urls: externalUrls,
});
const artist = z.object({
  id: z.string(),
  name: z.string(),
  uri: z.string(),
  genres: z.array(z.string()).optional(),
  external_urls: externalUrls,
});
const album = z.object({
  id: z.string(),
  name: z.string(),
  uri: z.string(),
  artists: z.array(artistRef),
  release_date: z.string().optional(),
  total_tracks: z.number().optional(),
  external_urls: externalUrls,
});
const playlist = z.object({
  id: z.string(),
  name: z.string(),
  uri: z.string(),
  description: z.string().nullish(),
  public: z.boolean().nullish(),
  owner: z.object({ display_name: z.string().nullish(), id: z.string() }).optional(),
  /** "items" since Spotify's February 2026 changes; "tracks" before. */
  items: z.object({ total: z.number() }).optional(),
  tracks: z.object({ total: z.number() }).optional(),
  images: z.array(image).nullish(),
  external_urls: externalUrls,
});

export type Track = z.output<typeof track>;
export type Artist = z.output<typeof artist>;
export type Album = z.output<typeof album>;
type Playlist = z.output<typeof playlist>;

/** A page of search hits; Spotify puts `null` in place of items it cannot show (notably playlists). */
const page = <Item extends z.ZodType>(item: Item) =>
  z.object({ total: z.number(), items: z.array(item.nullable()) }).transform((found) => ({
    total: found.total,
    items: found.items.filter((entry): entry is NonNullable<typeof entry> => entry !== null),
  }));

const searchAnswers = {
  track: z.object({ tracks: page(track) }).transform((answer) => answer.tracks),
  artist: z.object({ artists: page(artist) }).transform((answer) => answer.artists),
  album: z.object({ albums: page(album) }).transform((answer) => answer.albums),
  playlist: z.object({ playlists: page(playlist) }).transform((answer) => answer.playlists),
};

type SearchType = keyof typeof searchAnswers;

export type SearchResult =
  | { type: "track"; total: number; items: Track[] }
  | { type: "artist"; total: number; items: Artist[] }
  | { type: "album"; total: number; items: Album[] }
  | { type: "playlist"; total: number; items: Playlist[] };

export async function searchSpotify(
  context: ToolContext,
  type: SearchType,
  query: string,
  limit: number,
): Promise<SearchResult> {
  const call: Call = { method: "GET", path: "/v1/search", query: { q: query, type, limit } };
  switch (type) {
    case "track":
      return { type, ...(await spotify(context, call, searchAnswers.track)) };
    case "artist":
      return { type, ...(await spotify(context, call, searchAnswers.artist)) };
    case "album":
      return { type, ...(await spotify(context, call, searchAnswers.album)) };
    case "playlist":
      return { type, ...(await spotify(context, call, searchAnswers.playlist)) };
  }
}

/** The best match for a free-text track query, or undefined. */
export async function bestTrack(context: ToolContext, query: string): Promise<Track | undefined> {
  const found = await searchSpotify(context, "track", query, 1);
  return found.type === "track" ? found.items[0] : undefined;
}

interface NewPlaylist {
  name: string;
  description: string;
  public: boolean;
}

/** Creates an empty playlist in the connected user's account. */
export function createPlaylist(context: ToolContext, details: NewPlaylist): Promise<Playlist> {
  const json = { name: details.name, description: details.description, public: details.public };
  return spotify(context, { method: "POST", path: "/v1/me/playlists", json }, playlist);
}

/** Spotify takes at most 100 items per request. */
const ITEMS_PER_REQUEST = 100;

/** Appends tracks to a playlist; returns its new snapshot id. */
export async function addToPlaylist(context: ToolContext, playlistId: string, uris: string[]): Promise<string> {
  let snapshot = "";
  const path = `/v1/playlists/${encodeURIComponent(playlistId)}/items`;
  for (let start = 0; start < uris.length; start += ITEMS_PER_REQUEST) {
    const json = { uris: uris.slice(start, start + ITEMS_PER_REQUEST) };
    const answer = await spotify(context, { method: "POST", path, json }, z.object({ snapshot_id: z.string() }));
    snapshot = answer.snapshot_id;
  }
  return snapshot;
}
