import { z } from "zod";
import { defineTool } from "../define-tool.js";
import { type FoundPlace, searchPlaces } from "../geo/nominatim.js";

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
      limit: z.number().int().min(1).max(20).default(5),
    }),
    effect: "read",
    timeoutMs: 30_000,
    handler: async ({ query, limit }, context) => {
      const places = await searchPlaces(context, query, limit);
      if (places.length === 0) return `OpenStreetMap knows no place matching '${query}'. Try other or fewer words.`;
      return `OpenStreetMap places for '${query}':\n${places.map(formatPlace).join("\n")}`;
    },
  }),
];
