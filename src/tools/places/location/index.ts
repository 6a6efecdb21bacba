import { z } from "zod";
import { defineTool } from "../../kit/define-tool.js";
import { LOCATION_HELP, PLACE_PARAMETERS, resolvePlaceArgument } from "../../kit/geo/location.js";
import { resultLimit } from "../../kit/lenient-parameters.js";
import { locateDevice } from "./device-location.js";
import { googleSetupReport } from "./google-setup.js";
import { locateByIp } from "./ip-location.js";
import { nearbySearch, textSearch } from "./place-search.js";

const LOCATION_PARAMETER = z.string().optional().describe(`Where: ${LOCATION_HELP}`);
const RADIUS = z.number().min(1).max(50_000).default(5000).describe("Metres");
const MAX_RESULTS = resultLimit(20, 5);

const SOURCES =
  "Uses Google Places when GOOGLE_PLACES_API_KEY is set, else OpenStreetMap; the result says which answered.";

export const locationTools = [
  defineTool({
    name: "get_my_location",
    description:
      "Where this computer is: from the system's location service (GeoClue on Linux, CoreLocation on macOS) when " +
      "there is one, else from the IP address (city-level only). Says which source answered and how precise it is.",
    parameters: z.object({}),
    effect: "read",
    timeoutMs: 45_000,
    handler: async (_args, context) => {
      const device = await locateDevice(context.env, context.signal);
      if ("found" in device) {
        const { latitude, longitude, accuracyMeters, source } = device.found;
        return `Location from ${source} (accurate to about ${Math.round(accuracyMeters)} m): ${latitude}, ${longitude}`;
      }
      const ip = await locateByIp(context);
      return (
        `Approximate location from IP geolocation (ip-api.com), city-level only (it can be tens of kilometres ` +
        `off, or name the network provider's city): ${ip.place} (${ip.latitude}, ${ip.longitude}); ` +
        `time zone ${ip.timezone}; network ${ip.isp}.\n` +
        `Not from the system's location service: ${device.missing}. For an exact place, ask the user or use a ` +
        'saved place such as "home" (list_places).'
      );
    },
  }),
  defineTool({
    name: "places_text_search",
    description:
      `Find businesses and places by text ("vegan pizza", "Apotheke Bahnhofplatz"), optionally near a location ` +
      `(a saved place label such as "home" works) within a radius. ${SOURCES}`,
    parameters: z.object({
      text_query: z.string().trim().min(1),
      location: LOCATION_PARAMETER,
      latitude: z.number().min(-90).max(90).optional(),
      longitude: z.number().min(-180).max(180).optional(),
      radius: RADIUS,
      max_results: MAX_RESULTS,
      open_now: z.boolean().default(false).describe("Only places open now (Google only)"),
    }),
    effect: "read",
    timeoutMs: 45_000,
    handler: async ({ text_query, location, latitude, longitude, radius, max_results, open_now }, context) => {
      // The original tool took latitude 0, longitude 0 to mean "anywhere".
      const anywhere = !location?.trim() && !latitude && !longitude;
      const place = { text: location, latitude, longitude };
      const center = anywhere ? undefined : await resolvePlaceArgument(context, place, PLACE_PARAMETERS);
      const near = center && { ...center, radiusMeters: radius };
      return textSearch(context, { text: text_query, near, maxResults: max_results, openNow: open_now });
    },
  }),
  defineTool({
    name: "places_nearby_search",
    description:
      'Places of given types around a location (a saved place label such as "home" works), e.g. included_types ' +
      '["cafe"], ["pharmacy"], ["restaurant", "bar"], ["atm"], ["gas_station"], ["supermarket"], ["hotel"], ' +
      `["parking"], ["hospital"] (Google Places type names). ${SOURCES}`,
    parameters: z.object({
      location: LOCATION_PARAMETER,
      latitude: z.number().min(-90).max(90).optional(),
      longitude: z.number().min(-180).max(180).optional(),
      included_types: z.array(z.string().trim().min(1)).min(1).max(10),
      radius: RADIUS,
      max_results: MAX_RESULTS,
      rank_by: z.enum(["POPULARITY", "DISTANCE"]).default("POPULARITY"),
    }),
    effect: "read",
    timeoutMs: 60_000,
    handler: async ({ included_types, radius, max_results, rank_by, location, latitude, longitude }, context) => {
      const place = { text: location, latitude, longitude };
      const center = await resolvePlaceArgument(context, place, PLACE_PARAMETERS);
      const query = { types: included_types, radiusMeters: radius, maxResults: max_results, rankBy: rank_by };
      return nearbySearch(context, center, query);
    },
  }),
  defineTool({
    name: "setup_google_auth",
    description:
      "Step-by-step instructions for getting a Google Places API key and giving it to Marvin; when " +
      "GOOGLE_PLACES_API_KEY is set, checks it with one free request and says whether it is valid.",
    parameters: z.object({}),
    effect: "read",
    timeoutMs: 30_000,
    handler: async (_args, context) => googleSetupReport(context),
  }),
];
