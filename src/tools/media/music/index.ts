import { z } from "zod";
import { defineTool } from "../../kit/define-tool.js";
import { resultLimit } from "../../kit/lenient-parameters.js";
import { formatArtist, formatRecording, formatRelease, formatSearch } from "./format.js";
import { lookupArtist, lookupRecording, lookupRelease, type MusicEntity, searchMusic } from "./musicbrainz.js";

/** The model's words for MusicBrainz's entities: an album is a release, a song or track a recording. */
const ENTITY_NAMES = ["artist", "release", "album", "recording", "song", "track"] as const;
const ENTITIES: Record<(typeof ENTITY_NAMES)[number], MusicEntity> = {
  artist: "artist",
  release: "release",
  album: "release",
  recording: "recording",
  song: "recording",
  track: "recording",
};
const entity = z.enum(ENTITY_NAMES).default("artist").describe("album = release; song or track = recording");

/** Parallel calls queue for MusicBrainz's one request a second, so a call may wait several seconds. */
const MUSICBRAINZ_TOOL_TIMEOUT_MS = 90_000;

export const musicTools = [
  defineTool({
    name: "music_search",
    description:
      "Search MusicBrainz for artists, releases (albums) or recordings (songs): names, artists, dates, countries " +
      "and each hit's MBID for music_lookup.",
    parameters: z.object({
      query: z.string().trim().min(1).describe('e.g. "Radiohead", "OK Computer", "Creep artist:Radiohead"'),
      entity,
      max_results: resultLimit(100, 10),
    }),
    effect: "read",
    timeoutMs: MUSICBRAINZ_TOOL_TIMEOUT_MS,
    handler: async (args, context) =>
      formatSearch(args.query, await searchMusic(context, ENTITIES[args.entity], args.query, args.max_results)),
  }),
  defineTool({
    name: "music_lookup",
    description:
      "Look up one MusicBrainz entry by MBID: an artist with its discography (release groups), a release with " +
      "its track list, or a recording with the releases it appears on.",
    parameters: z.object({
      mbid: z.string().describe("MusicBrainz ID from music_search"),
      entity,
    }),
    effect: "read",
    timeoutMs: MUSICBRAINZ_TOOL_TIMEOUT_MS,
    handler: async ({ mbid, entity }, context) => {
      switch (ENTITIES[entity]) {
        case "artist":
          return formatArtist(await lookupArtist(context, mbid));
        case "release":
          return formatRelease(await lookupRelease(context, mbid));
        case "recording":
          return formatRecording(await lookupRecording(context, mbid));
      }
    },
  }),
];
