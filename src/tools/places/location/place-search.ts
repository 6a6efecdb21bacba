import { type ToolContext, ToolError } from "../../kit/define-tool.js";
import type { Coordinates } from "../../kit/geo/location.js";
import { GoogleRefusal, googleNearbySearch, googlePlacesKey, googleTextSearch } from "./google-places.js";
import { osmNearbySearch, osmTextSearch } from "./osm-places.js";
import { formatHits, type PlaceHit } from "./place-hits.js";
import { canonicalPlaceType, MAPPED_PLACE_TYPES, type OsmTag, osmTagsFor } from "./place-types.js";

type Area = Coordinates & { radiusMeters: number };

const describeCenter = (center: Coordinates) => `${center.label} (${center.latitude}, ${center.longitude})`;

/**
 * Runs `google` when a Places key is set; a refused key falls back to OpenStreetMap with a note
 * that says why, any other failure is the tool's failure.
 */
async function withGoogleFirst(
  context: ToolContext,
  google: (key: string) => Promise<string>,
  openStreetMap: () => Promise<string>,
): Promise<string> {
  const key = googlePlacesKey(context.env);
  if (!key) return openStreetMap();
  try {
    return await google(key);
  } catch (error) {
    if (!(error instanceof GoogleRefusal && error.isKeyProblem)) throw error;
    return `${error.message} Meanwhile, OpenStreetMap answered:\n${await openStreetMap()}`;
  }
}

function report(title: string, hits: readonly PlaceHit[], empty: string, center?: Coordinates): string {
  return hits.length ? `${title}:\n${formatHits(hits, center)}` : empty;
}

interface TextSearch {
  text: string;
  near: Area | undefined;
  maxResults: number;
  openNow: boolean;
}

export function textSearch(context: ToolContext, search: TextSearch): Promise<string> {
  const { text, near, maxResults, openNow } = search;
  const where = near ? ` within ${near.radiusMeters} m of ${describeCenter(near)}` : "";
  const empty = (source: string) =>
    `${source} found no places matching '${text}'${where}. Try other words or a wider radius.`;
  return withGoogleFirst(
    context,
    async (key) => {
      const circle = near && { latitude: near.latitude, longitude: near.longitude, radius: near.radiusMeters };
      const hits = await googleTextSearch(context, key, { text, maxResults, openNow, near: circle });
      const open = openNow ? " (open now)" : "";
      return report(`Places matching '${text}'${where}${open}, from Google Places`, hits, empty("Google Places"), near);
    },
    async () => {
      const hits = await osmTextSearch(context, text, maxResults, near);
      const title = `Places matching '${text}'${where}, from OpenStreetMap (Nominatim)`;
      const openNote = openNow && hits.length ? "\nOpenStreetMap cannot tell what is open now: check the hours." : "";
      return report(title, hits, empty("OpenStreetMap (Nominatim)"), near) + openNote;
    },
  );
}

interface NearbySearch {
  types: string[];
  radiusMeters: number;
  maxResults: number;
  rankBy: "POPULARITY" | "DISTANCE";
}

/** The OSM tags of the types that have some, and the types that have none. */
function osmTags(types: readonly string[]): { tags: OsmTag[]; unmapped: string[] } {
  const unmapped = types.filter((type) => !osmTagsFor(type));
  return { tags: types.flatMap((type) => osmTagsFor(type) ?? []), unmapped };
}

export function nearbySearch(context: ToolContext, center: Coordinates, search: NearbySearch): Promise<string> {
  const types = [...new Set(search.types.map(canonicalPlaceType))];
  const { radiusMeters, maxResults, rankBy } = search;
  const what = types.join(", ");
  const where = `within ${radiusMeters} m of ${describeCenter(center)}`;
  const empty = (source: string) => `${source} found no ${what} ${where}. Try a wider radius or other types.`;
  return withGoogleFirst(
    context,
    async (key) => {
      const area = { latitude: center.latitude, longitude: center.longitude, radius: radiusMeters };
      const hits = await googleNearbySearch(context, key, { types, maxResults, rankBy, area });
      const order = rankBy === "DISTANCE" ? "nearest first" : "most popular first";
      return report(`${what} ${where}, from Google Places, ${order}`, hits, empty("Google Places"), center);
    },
    async () => {
      const { tags, unmapped } = osmTags(types);
      const skipped = unmapped.length
        ? `\nNot searched (no OpenStreetMap equivalent known): ${unmapped.join(", ")}. Known types: ` +
          `${MAPPED_PLACE_TYPES.join(", ")}. places_text_search or overpass_query can look for anything else.`
        : "";
      if (tags.length === 0) throw new ToolError(`Nothing to search for.${skipped}`);
      const { hits, remark } = await osmNearbySearch(context, center, radiusMeters, tags);
      const title = `${what} ${where}, from OpenStreetMap (Overpass), nearest first`;
      const partial = remark ? `\nOverpass stopped early (${remark}); nearer places may be missing.` : "";
      return report(title, hits.slice(0, maxResults), empty("OpenStreetMap (Overpass)"), center) + partial + skipped;
    },
  );
}
