import { z } from "zod";
import { type ToolContext, ToolError } from "../../kit/define-tool.js";
import {
  type ExternalService,
  http,
  type QueryParams,
  type StatusAdvice,
  withStatusAdvice,
} from "../../kit/http/index.js";

const MUSICBRAINZ: ExternalService = {
  name: "MusicBrainz",
  envVar: "MARVIN_MUSICBRAINZ_URL",
  defaultUrl: "https://musicbrainz.org",
  // MusicBrainz's rate limit: one request a second on average per client; it answers 503 above that.
  minIntervalMs: 1_000,
};

/** What MusicBrainz calls the three things Marvin searches and looks up. */
export type MusicEntity = "artist" | "release" | "recording";

const text = z.string().nullish();
const lifeSpan = z.object({ begin: text, end: text, ended: z.boolean().nullish() });
const area = z.object({ name: z.string() }).nullish();
/** Search hits carry a 0–100 match score, a number in today's JSON and a string in older answers. */
const score = z.union([z.number(), z.string().transform(Number)]).optional();
const artistCredit = z.array(z.object({ name: z.string(), joinphrase: z.string().optional() })).optional();

const releaseGroup = z.object({
  id: z.string(),
  title: z.string(),
  "primary-type": text,
  "secondary-types": z.array(z.string()).optional(),
  "first-release-date": text,
});

const artist = z.object({
  id: z.string(),
  name: z.string(),
  type: text,
  country: text,
  disambiguation: text,
  area,
  "life-span": lifeSpan.optional(),
  score,
  tags: z.array(z.object({ name: z.string(), count: z.number() })).optional(),
  "release-groups": z.array(releaseGroup).optional(),
});

const track = z.object({ number: z.string().optional(), title: z.string(), length: z.number().nullish() });
const medium = z.object({
  position: z.number().optional(),
  format: text,
  title: text,
  "track-count": z.number().optional(),
  /** Lookups list a medium's tracks as `tracks`; search hits name the matching one `track`. */
  tracks: z.array(track).optional(),
});

const release = z.object({
  id: z.string(),
  title: z.string(),
  status: text,
  date: text,
  country: text,
  disambiguation: text,
  "artist-credit": artistCredit,
  "release-group": releaseGroup.partial().optional(),
  "track-count": z.number().optional(),
  media: z.array(medium).optional(),
  score,
});

const recording = z.object({
  id: z.string(),
  title: z.string(),
  length: z.number().nullish(),
  disambiguation: text,
  "first-release-date": text,
  "artist-credit": artistCredit,
  releases: z.array(release).optional(),
  score,
});

export type Artist = z.output<typeof artist>;
export type Release = z.output<typeof release>;
export type Recording = z.output<typeof recording>;
export type ReleaseGroup = z.output<typeof releaseGroup>;

const searchAnswers = {
  artist: z.object({ count: z.number(), artists: z.array(artist) }),
  release: z.object({ count: z.number(), releases: z.array(release) }),
  recording: z.object({ count: z.number(), recordings: z.array(recording) }),
};

export type SearchHits =
  | { entity: "artist"; total: number; hits: Artist[] }
  | { entity: "release"; total: number; hits: Release[] }
  | { entity: "recording"; total: number; hits: Recording[] };

/** MusicBrainz's 503 is its rate limit, not an outage: say so, with what to do. */
function advice(what: string): StatusAdvice {
  return {
    503:
      "it allows about one request a second and turns requests away when busy. Wait a few seconds and ask " +
      "again, with fewer lookups at once.",
    404: `it has no ${what}. Find the right MBID with music_search.`,
  };
}

async function ask<Schema extends z.ZodType>(
  context: ToolContext,
  path: string,
  query: QueryParams,
  schema: Schema,
  what: string,
): Promise<z.output<Schema>> {
  const asked = { ...query, fmt: "json" };
  return withStatusAdvice(advice(what), () => http(context).getJson(MUSICBRAINZ, path, asked, schema));
}

/** Search hits for free text (Lucene syntax allowed), best match first. */
export async function searchMusic(
  context: ToolContext,
  entity: MusicEntity,
  query: string,
  limit: number,
): Promise<SearchHits> {
  const path = `/ws/2/${entity}`;
  const params = { query, limit };
  const what = `${entity} search`;
  switch (entity) {
    case "artist": {
      const answer = await ask(context, path, params, searchAnswers.artist, what);
      return { entity, total: answer.count, hits: answer.artists };
    }
    case "release": {
      const answer = await ask(context, path, params, searchAnswers.release, what);
      return { entity, total: answer.count, hits: answer.releases };
    }
    case "recording": {
      const answer = await ask(context, path, params, searchAnswers.recording, what);
      return { entity, total: answer.count, hits: answer.recordings };
    }
  }
}

const MBID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function checkedMbid(mbid: string): string {
  const id = mbid.trim();
  if (!MBID.test(id)) {
    const example = "a74b1b7f-71a5-4011-9441-d0b5e4122711";
    throw new ToolError(`'${mbid}' is not a MusicBrainz ID (like ${example}). Find one with music_search.`);
  }
  return id.toLowerCase();
}

/** An artist with its release groups (the discography). */
export function lookupArtist(context: ToolContext, mbid: string): Promise<Artist> {
  const id = checkedMbid(mbid);
  return ask(context, `/ws/2/artist/${id}`, { inc: "release-groups" }, artist, `artist with MBID ${id}`);
}

/** A release with its artists and track list. */
export function lookupRelease(context: ToolContext, mbid: string): Promise<Release> {
  const id = checkedMbid(mbid);
  const query = { inc: "artist-credits recordings" };
  return ask(context, `/ws/2/release/${id}`, query, release, `release with MBID ${id}`);
}

/** A recording with its artists and the releases it appears on. */
export function lookupRecording(context: ToolContext, mbid: string): Promise<Recording> {
  const id = checkedMbid(mbid);
  const query = { inc: "artist-credits releases" };
  return ask(context, `/ws/2/recording/${id}`, query, recording, `recording with MBID ${id}`);
}
