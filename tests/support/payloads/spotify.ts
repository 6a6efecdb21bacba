/**
 * Spotify accounts and Web API answers in their real shapes: the token answer of /api/token
 * (expires_in in seconds; a refresh may come without a new refresh_token), OAuth error bodies
 * ({"error","error_description"}), Web API error bodies ({"error":{"status","message"}}), search
 * pages with `null` in place of items Spotify cannot show, and playlists with `items` (since
 * February 2026) instead of `tracks`.
 */

export const SPOTIFY_USER_ID = "wizzler";

export function tokenAnswer(accessToken: string, refreshToken?: string) {
  return {
    access_token: accessToken,
    token_type: "Bearer",
    scope: "playlist-modify-private playlist-modify-public",
    expires_in: 3600,
    ...(refreshToken ? { refresh_token: refreshToken } : {}),
  };
}

export const INVALID_GRANT = { error: "invalid_grant", error_description: "Invalid authorization code" };
export const REFRESH_REVOKED = { error: "invalid_grant", error_description: "Refresh token revoked" };
export const TOKEN_EXPIRED = { error: { status: 401, message: "The access token expired" } };
export const SERVER_ERROR = { error: { status: 500, message: "Server error." } };

const artist = (id: string, name: string) => ({
  external_urls: { spotify: `https://open.spotify.com/artist/${id}` },
  href: `https://api.spotify.com/v1/artists/${id}`,
  id,
  name,
  type: "artist",
  uri: `spotify:artist:${id}`,
});

const RADIOHEAD = artist("4Z8W4fKeB5YxbusRsdQVPb", "Radiohead");

const OK_COMPUTER = {
  album_type: "album",
  artists: [RADIOHEAD],
  external_urls: { spotify: "https://open.spotify.com/album/6dVIqQ8qmQ5GBnJ9shOYGE" },
  href: "https://api.spotify.com/v1/albums/6dVIqQ8qmQ5GBnJ9shOYGE",
  id: "6dVIqQ8qmQ5GBnJ9shOYGE",
  images: [{ height: 640, url: "https://i.scdn.co/image/ab67616d0000b273c8b444df094279e70d0ed856", width: 640 }],
  is_playable: true,
  name: "OK Computer",
  release_date: "1997-05-28",
  release_date_precision: "day",
  total_tracks: 12,
  type: "album",
  uri: "spotify:album:6dVIqQ8qmQ5GBnJ9shOYGE",
};

export function spotifyTrack(id: string, name: string, durationMs: number, trackNumber: number) {
  return {
    album: OK_COMPUTER,
    artists: [RADIOHEAD],
    disc_number: 1,
    duration_ms: durationMs,
    explicit: false,
    external_ids: { isrc: `GBAYE97003${trackNumber}` },
    external_urls: { spotify: `https://open.spotify.com/track/${id}` },
    href: `https://api.spotify.com/v1/tracks/${id}`,
    id,
    is_local: false,
    is_playable: true,
    name,
    track_number: trackNumber,
    type: "track",
    uri: `spotify:track:${id}`,
  };
}

export const PARANOID_ANDROID = spotifyTrack("6LgJvl0Xdtc73RJ1mmpotq", "Paranoid Android", 383493, 2);
export const KARMA_POLICE = spotifyTrack("63OQupATfueTdZMWTxW03A", "Karma Police", 264066, 6);

function searchPage(kind: string, query: string, items: unknown[], total = items.length, limit = 10) {
  const search = `query=${encodeURIComponent(query)}&type=${kind}`;
  const href = `https://api.spotify.com/v1/search?offset=0&limit=${limit}&${search}`;
  return {
    href,
    items,
    limit,
    next: total > limit ? href.replace("offset=0", `offset=${limit}`) : null,
    offset: 0,
    previous: null,
    total,
  };
}

export const trackSearch = (query: string, items: unknown[], total?: number, limit?: number) => ({
  tracks: searchPage("track", query, items, total, limit),
});

export const ARTIST_SEARCH = {
  artists: searchPage("artist", "radiohead", [
    { ...RADIOHEAD, genres: ["art rock", "alternative rock"], images: [] },
    { ...artist("0aXbnAbTJbDvyqg1TLmgHM", "Radiohead Tribute Band"), genres: [], images: [] },
  ]),
};

/** Spotify's search sends `null` for playlists it will not show. */
export const PLAYLIST_SEARCH = {
  playlists: searchPage(
    "playlist",
    "radiohead",
    [
      null,
      {
        collaborative: false,
        description: "The essential tracks, all in one playlist.",
        external_urls: { spotify: "https://open.spotify.com/playlist/37i9dQZF1DZ06evO1ZJgR3" },
        href: "https://api.spotify.com/v1/playlists/37i9dQZF1DZ06evO1ZJgR3",
        id: "37i9dQZF1DZ06evO1ZJgR3",
        images: [{ height: null, url: "https://i.scdn.co/image/ab67706f00000002", width: null }],
        name: "This Is Radiohead",
        owner: {
          display_name: "Spotify",
          external_urls: {},
          href: "",
          id: "spotify",
          type: "user",
          uri: "spotify:user:spotify",
        },
        primary_color: null,
        public: true,
        snapshot_id: "MTcxNzAxMjQwMCwwMDAwMDAwMDAwMDAwMDAwMDAwMDAw",
        items: { href: "https://api.spotify.com/v1/playlists/37i9dQZF1DZ06evO1ZJgR3/items", total: 50 },
        type: "playlist",
        uri: "spotify:playlist:37i9dQZF1DZ06evO1ZJgR3",
      },
    ],
    2,
  ),
};

export function createdPlaylist(id: string, name: string, description: string, isPublic: boolean) {
  return {
    collaborative: false,
    description,
    external_urls: { spotify: `https://open.spotify.com/playlist/${id}` },
    followers: { href: null, total: 0 },
    href: `https://api.spotify.com/v1/playlists/${id}`,
    id,
    images: [],
    name,
    owner: {
      display_name: "JM Wizzler",
      external_urls: { spotify: `https://open.spotify.com/user/${SPOTIFY_USER_ID}` },
      href: `https://api.spotify.com/v1/users/${SPOTIFY_USER_ID}`,
      id: SPOTIFY_USER_ID,
      type: "user",
      uri: `spotify:user:${SPOTIFY_USER_ID}`,
    },
    primary_color: null,
    public: isPublic,
    snapshot_id: "AAAAAb4Il8iGZ3eH9D9X0a0fHq3ZBt6x",
    items: {
      href: `https://api.spotify.com/v1/playlists/${id}/items`,
      items: [],
      limit: 100,
      next: null,
      offset: 0,
      previous: null,
      total: 0,
    },
    type: "playlist",
    uri: `spotify:playlist:${id}`,
  };
}

export const SNAPSHOT = { snapshot_id: "AAAAAtJlyN0Kp6pxBfmzh7Hr4Y3hS2hu" };
