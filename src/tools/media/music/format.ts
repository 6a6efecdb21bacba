import type { Artist, Recording, Release, ReleaseGroup, SearchHits } from "./musicbrainz.js";

type Credit = Release["artist-credit"];

/** "Radiohead", "Jay-Z & Linkin Park": the credited names with their join phrases. */
function credited(credit: Credit): string {
  return (credit ?? []).map((part) => `${part.name}${part.joinphrase ?? ""}`).join("");
}

/** 238640 ms → "3:59". */
function duration(ms: number | null | undefined): string {
  if (!ms) return "";
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

function lifeSpan(span: Artist["life-span"]): string {
  const begin = span?.begin;
  const end = span?.end;
  if (!begin && !end) return span?.ended ? "ended" : "";
  if (end) return `${begin ?? "?"} – ${end}`;
  return span?.ended ? `${begin} – ended` : `${begin} – present`;
}

function joined(parts: Array<string | null | undefined>, separator = ", "): string {
  return parts.filter((part) => part?.trim()).join(separator);
}

function scored(score: number | undefined): string {
  return score === undefined ? "" : `match ${score}%`;
}

function artistSummary(artist: Artist): string {
  const where = joined([artist.country, artist.area?.name !== artist.country ? artist.area?.name : undefined], " ");
  const about = joined([artist.type, where, lifeSpan(artist["life-span"]), artist.disambiguation]);
  return `${artist.name}${about ? ` (${about})` : ""}`;
}

function groupType(group: Partial<ReleaseGroup> | undefined): string {
  return joined([group?.["primary-type"], ...(group?.["secondary-types"] ?? [])], " + ");
}

function releaseSummary(release: Release): string {
  const by = credited(release["artist-credit"]);
  const formats = [...new Set((release.media ?? []).map((medium) => medium.format).filter(Boolean))].join("+");
  const tracks = release["track-count"] ? `${release["track-count"]} tracks` : "";
  const about = joined([
    groupType(release["release-group"]),
    release.status,
    release.date,
    release.country,
    tracks,
    formats,
  ]);
  return `${release.title}${by ? ` — ${by}` : ""}${about ? ` (${about})` : ""}`;
}

function recordingSummary(recording: Recording): string {
  const by = credited(recording["artist-credit"]);
  const length = duration(recording.length);
  const first = recording["first-release-date"] ? `first released ${recording["first-release-date"]}` : "";
  const on = recording.releases?.[0] ? `on ${recording.releases[0].title}` : "";
  const about = joined([length, first, on, recording.disambiguation]);
  return `${recording.title}${by ? ` — ${by}` : ""}${about ? ` (${about})` : ""}`;
}

function numbered(lines: Array<{ head: string; id: string; score: number | undefined }>): string {
  return lines
    .map(
      ({ head, id, score }, index) =>
        `${index + 1}. ${head}\n   MBID ${id}${score === undefined ? "" : `, ${scored(score)}`}`,
    )
    .join("\n");
}

const PLURAL = { artist: "artists", release: "releases", recording: "recordings" } as const;

export function formatSearch(query: string, found: SearchHits): string {
  const noun = PLURAL[found.entity];
  if (found.hits.length === 0) return `MusicBrainz has no ${noun} matching '${query}'. Try other or fewer words.`;
  const lines =
    found.entity === "artist"
      ? found.hits.map((hit) => ({ head: artistSummary(hit), id: hit.id, score: hit.score }))
      : found.entity === "release"
        ? found.hits.map((hit) => ({ head: releaseSummary(hit), id: hit.id, score: hit.score }))
        : found.hits.map((hit) => ({ head: recordingSummary(hit), id: hit.id, score: hit.score }));
  const shown = `${found.hits.length} of ${found.total}`;
  const heading = `MusicBrainz ${noun} matching '${query}' (${shown}; look one up with music_lookup and its MBID):`;
  return `${heading}\n${numbered(lines)}`;
}

/** Oldest first; release groups without a date go last. */
function byFirstRelease(left: ReleaseGroup, right: ReleaseGroup): number {
  const a = left["first-release-date"] || "9999";
  const b = right["first-release-date"] || "9999";
  return a.localeCompare(b);
}

export function formatArtist(artist: Artist): string {
  const groups = [...(artist["release-groups"] ?? [])].sort(byFirstRelease);
  const discography = groups.map((group, index) => {
    const kind = groupType(group);
    const date = group["first-release-date"] || "undated";
    return `${index + 1}. ${date} ${group.title}${kind ? ` [${kind}]` : ""}`;
  });
  return [
    artistSummary(artist),
    `MBID ${artist.id}`,
    groups.length ? `Release groups (oldest first):\n${discography.join("\n")}` : "MusicBrainz lists no releases.",
  ].join("\n");
}

export function formatRelease(release: Release): string {
  const media = release.media ?? [];
  const sections = media.map((medium) => {
    const title = joined(
      [medium.format ?? "Medium", media.length > 1 ? String(medium.position ?? "") : "", medium.title],
      " ",
    );
    const tracks = (medium.tracks ?? []).map((track) => {
      const length = duration(track.length);
      return `${track.number ?? "?"}. ${track.title}${length ? ` (${length})` : ""}`;
    });
    return `${title}:\n${tracks.join("\n") || "(no track list)"}`;
  });
  return [releaseSummary(release), `MBID ${release.id}`, ...sections].join("\n");
}

export function formatRecording(recording: Recording): string {
  const releases = (recording.releases ?? []).map((release, index) => {
    const about = joined([release.status, release.date, release.country]);
    return `${index + 1}. ${release.title}${about ? ` (${about})` : ""} — MBID ${release.id}`;
  });
  const by = credited(recording["artist-credit"]);
  const about = joined([
    duration(recording.length),
    recording["first-release-date"] && `first released ${recording["first-release-date"]}`,
  ]);
  return [
    `${recording.title}${by ? ` — ${by}` : ""}${about ? ` (${about})` : ""}`,
    `MBID ${recording.id}`,
    releases.length ? `Appears on:\n${releases.join("\n")}` : "MusicBrainz lists no release with it.",
  ].join("\n");
}
