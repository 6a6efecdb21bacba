import { type ToolContext, ToolError } from "../../kit/define-tool.js";
import { distanceMeters } from "../../kit/geo/distance.js";
import type { Coordinates } from "../../kit/geo/location.js";
import { searchPlaces } from "../../kit/geo/nominatim.js";
import {
  elementAddress,
  elementKind,
  elementPosition,
  type OsmElement,
  OVERPASS_DEFAULT_TIMEOUT_S,
  runOverpass,
} from "../../kit/geo/overpass.js";
import type { PlaceHit } from "./place-hits.js";
import type { OsmTag } from "./place-types.js";

/** Elements Overpass may send for one nearby search; they are sorted by distance here. */
const MAX_CANDIDATES = 1000;

/** Overpass QL quotes: a backslash and a double quote are escaped. */
const quoted = (text: string) => `"${text.replace(/[\\"]/g, (character) => `\\${character}`)}"`;

function nearbyQuery(center: Coordinates, radiusMeters: number, tags: readonly OsmTag[]): string {
  const around = `(around:${Math.round(radiusMeters)},${center.latitude},${center.longitude})`;
  const statements = tags.map(({ key, value }) => `  nwr[${quoted(key)}=${quoted(value)}]${around};`);
  return `(\n${statements.join("\n")}\n);\nout tags center ${MAX_CANDIDATES};`;
}

function toHit(item: OsmElement): PlaceHit | undefined {
  const where = elementPosition(item);
  if (!where) return undefined;
  const tags = item.tags ?? {};
  const kind = elementKind(tags);
  return {
    name: tags.name ?? tags.brand ?? `(unnamed ${kind.split("=")[1] ?? "place"})`,
    kind,
    address: elementAddress(tags),
    latitude: where.lat,
    longitude: where.lon,
    openingHours: tags.opening_hours,
    phone: tags.phone ?? tags["contact:phone"],
    website: tags.website ?? tags["contact:website"],
  };
}

/**
 * OpenStreetMap features with any of `tags` within the circle, nearest first, and Overpass's
 * remark when it stopped early (the list may then be incomplete).
 */
export async function osmNearbySearch(
  context: ToolContext,
  center: Coordinates,
  radiusMeters: number,
  tags: readonly OsmTag[],
): Promise<{ hits: PlaceHit[]; remark: string | undefined }> {
  const { elements, remark } = await runOverpass(
    context,
    nearbyQuery(center, radiusMeters, tags),
    OVERPASS_DEFAULT_TIMEOUT_S,
  );
  if (remark && elements.length === 0) {
    throw new ToolError(`Overpass stopped without results: ${remark} Try a smaller radius, or again in a minute.`);
  }
  const hits = elements.map(toHit).filter((hit) => hit !== undefined);
  return { hits: hits.sort((a, b) => distanceMeters(center, a) - distanceMeters(center, b)), remark };
}

/** Nominatim's matches for free text, within the circle when one is given. */
export async function osmTextSearch(
  context: ToolContext,
  text: string,
  maxResults: number,
  near: (Coordinates & { radiusMeters: number }) | undefined,
): Promise<PlaceHit[]> {
  const found = await searchPlaces(context, text, maxResults, near);
  return found.map((item) => ({
    name: item.name,
    kind: item.kind,
    address: item.address,
    latitude: item.latitude,
    longitude: item.longitude,
  }));
}
