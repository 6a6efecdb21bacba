import { z } from "zod";
import { defineTool } from "../../kit/define-tool.js";
import { type FoundPlace, searchPlaces } from "../../kit/geo/nominatim.js";
import { OVERPASS_DEFAULT_TIMEOUT_S, runOverpass } from "../../kit/geo/overpass.js";
import { resultLimit } from "../../kit/lenient-parameters.js";
import { summariseElements } from "./overpass-summary.js";

function formatPlace(place: FoundPlace, index: number): string {
  const kind = place.kind ? ` [${place.kind}]` : "";
  return `${index + 1}. ${place.name}${kind}\n   ${place.address}\n   ${place.latitude}, ${place.longitude}`;
}

export const mapTools = [
  defineTool({
    name: "osm_search",
    description:
      "Find places, addresses or landmarks on OpenStreetMap: name, address, coordinates and kind of each match. " +
      'Saved places such as "home" are in list_places.',
    parameters: z.object({
      query: z.string().trim().min(1).describe('e.g. "Bundesplatz 3, Bern", "Eiffel Tower"'),
      limit: resultLimit(20, 5),
    }),
    effect: "read",
    timeoutMs: 30_000,
    handler: async ({ query, limit }, context) => {
      const places = await searchPlaces(context, query, limit);
      if (places.length === 0) return `OpenStreetMap knows no place matching '${query}'. Try other or fewer words.`;
      return `OpenStreetMap places for '${query}':\n${places.map(formatPlace).join("\n")}`;
    },
  }),
  defineTool({
    name: "overpass_query",
    description:
      "Run an Overpass QL query on OpenStreetMap data (e.g. `node[amenity=drinking_water](around:500,46.948,7.447); " +
      "out;`). Output is JSON and the timeout is set for you; use `out center;` so ways get coordinates. Lists each " +
      "element's name, type/id, main tag, coordinates and key tags (at most 50). For places near someone, " +
      "places_nearby_search is simpler.",
    parameters: z.object({
      query: z.string().trim().min(1).describe("Overpass QL"),
      timeout: z
        .number()
        .int()
        .min(1)
        .max(180)
        .default(OVERPASS_DEFAULT_TIMEOUT_S)
        .describe("Seconds Overpass may spend on the query"),
    }),
    effect: "read",
    timeoutMs: ({ timeout }) => (timeout + 30) * 1000,
    handler: async ({ query, timeout }, context) => {
      const { elements, remark } = await runOverpass(context, query, timeout);
      const stopped = remark
        ? `Overpass stopped early: ${remark} The elements below may be incomplete; raise timeout or narrow the query.\n`
        : "";
      if (elements.length === 0) return `${stopped}Overpass found no elements for this query.`;
      const count = `${elements.length} element${elements.length === 1 ? "" : "s"}`;
      return `${stopped}Overpass returned ${count}:\n${summariseElements(elements)}`;
    },
  }),
];
