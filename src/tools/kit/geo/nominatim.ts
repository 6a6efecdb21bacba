import { z } from "zod";
import type { ToolContext } from "../define-tool.js";
import { type ExternalService, http } from "../http/index.js";

const NOMINATIM: ExternalService = {
  name: "Nominatim (OpenStreetMap)",
  envVar: "MARVIN_NOMINATIM_URL",
  defaultUrl: "https://nominatim.openstreetmap.org",
  // Nominatim's usage policy: at most one request a second.
  minIntervalMs: 1_000,
};

/** Nominatim sends coordinates as decimal strings ("46.9484742"). */
const coordinate = z.string().transform(Number).pipe(z.number());

const searchResults = z.array(
  z.object({
    lat: coordinate,
    lon: coordinate,
    display_name: z.string(),
    name: z.string().optional(),
    category: z.string().optional(),
    type: z.string().optional(),
  }),
);

export interface FoundPlace {
  /** The place's own name, or the first part of its address when it has none. */
  name: string;
  address: string;
  latitude: number;
  longitude: number;
  /** OpenStreetMap's "category/type", e.g. "amenity/cafe". */
  kind: string;
}

/** A circle to search in: results outside its bounding box are left out. */
interface SearchArea {
  latitude: number;
  longitude: number;
  radiusMeters: number;
}

const METERS_PER_DEGREE = 111_320;

/** Nominatim's `viewbox` (west,north,east,south) around the circle, with `bounded` so it limits the results. */
function areaQuery(area: SearchArea | undefined) {
  if (!area) return {};
  const dLat = area.radiusMeters / METERS_PER_DEGREE;
  const dLon = area.radiusMeters / (METERS_PER_DEGREE * Math.max(Math.cos((area.latitude * Math.PI) / 180), 0.01));
  const round = (value: number) => Number(value.toFixed(6));
  const box = [area.longitude - dLon, area.latitude + dLat, area.longitude + dLon, area.latitude - dLat];
  return { viewbox: box.map(round).join(","), bounded: 1 };
}

/** Places matching free text, best first; empty when Nominatim knows none. */
export async function searchPlaces(
  context: ToolContext,
  text: string,
  limit: number,
  area?: SearchArea,
): Promise<FoundPlace[]> {
  const query = { q: text, format: "jsonv2", limit, ...areaQuery(area) };
  const results = await http(context).getJson(NOMINATIM, "/search", query, searchResults);
  return results.map((result) => ({
    name: result.name || result.display_name.split(",")[0]!.trim(),
    address: result.display_name,
    latitude: result.lat,
    longitude: result.lon,
    kind: [result.category, result.type].filter(Boolean).join("/"),
  }));
}
