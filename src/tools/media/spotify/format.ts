import type { SearchResult, Track } from "./web-api.js";

const names = (artists: Array<{ name: string }>) => artists.map((artist) => artist.name).join(", ");

function minutes(ms: number | undefined): string {
  if (!ms) return "";
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** The item's URI, and its open.spotify.com link when there is one, on their own lines. */
const where = (uri: string, urls: { spotify?: string | undefined } | undefined) =>
  `\n   ${uri}${urls?.spotify ? `\n   ${urls.spotify}` : ""}`;

const bracketed = (parts: string[]) => (parts.length ? ` (${parts.join(", ")})` : "");

export function trackLine(track: Track): string {
  const album = track.album
    ? `, ${track.album.name}${track.album.release_date ? ` (${track.album.release_date.slice(0, 4)})` : ""}`
    : "";
  const length = minutes(track.duration_ms);
  return `${track.name} — ${names(track.artists)}${album}${length ? `, ${length}` : ""}`;
}

function lines(found: SearchResult): string[] {
  switch (found.type) {
    case "track":
      return found.items.map((track) => `${trackLine(track)}${where(track.uri, track.external_urls)}`);
    case "artist":
      return found.items.map((artist) => {
        const genres = bracketed((artist.genres ?? []).slice(0, 3));
        return `${artist.name}${genres}${where(artist.uri, artist.external_urls)}`;
      });
    case "album":
      return found.items.map((album) => {
        const about = [album.release_date ?? "", album.total_tracks ? `${album.total_tracks} tracks` : ""].filter(
          Boolean,
        );
        return `${album.name} — ${names(album.artists)}${bracketed(about)}${where(album.uri, album.external_urls)}`;
      });
    case "playlist":
      return found.items.map((playlist) => {
        const total = (playlist.items ?? playlist.tracks)?.total;
        const owner = playlist.owner?.display_name ?? playlist.owner?.id;
        const about = [owner ? `by ${owner}` : "", total !== undefined ? `${total} tracks` : ""].filter(Boolean);
        return `${playlist.name}${bracketed(about)}${where(playlist.uri, playlist.external_urls)}`;
      });
  }
}

export function formatSearch(query: string, found: SearchResult): string {
  const kind = `${found.type}s`;
  if (found.items.length === 0) return `Spotify has no ${kind} matching '${query}'. Try other or fewer words.`;
  const numbered = lines(found).map((line, index) => `${index + 1}. ${line}`);
  return [`Spotify ${kind} matching '${query}' (${found.items.length} of ${found.total}):`, ...numbered].join("\n");
}
