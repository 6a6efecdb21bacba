import { z } from "zod";
import { defineTool, type ToolContext, ToolError } from "../define-tool.js";
import { type Coordinates, LOCATION_HELP, resolveLocation } from "../geo/location.js";
import { fetchForecast } from "./open-meteo.js";
import { formatForecast } from "./report.js";

interface Where {
  location?: string | undefined;
  latitude?: number | undefined;
  longitude?: number | undefined;
}

/** The location when one is given (the model's usual way), else the upstream tool's coordinates. */
async function placeOf({ location, latitude, longitude }: Where, context: ToolContext): Promise<Coordinates> {
  if (location?.trim()) return resolveLocation(context, location);
  if (latitude === undefined || longitude === undefined) {
    throw new ToolError(`Say where: give location (${LOCATION_HELP}), or latitude and longitude.`);
  }
  return { latitude, longitude, label: `${latitude}, ${longitude}` };
}

export const weatherTools = [
  defineTool({
    name: "weather_forecast",
    description:
      "Current weather and a daily forecast (Open-Meteo): conditions, temperature, feels-like, precipitation, " +
      "wind, sunrise/sunset; local times, the user's units. Give location, or latitude and longitude.",
    parameters: z.object({
      location: z.string().optional().describe(`Where: ${LOCATION_HELP}`),
      latitude: z.number().min(-90).max(90).optional(),
      longitude: z.number().min(-180).max(180).optional(),
      days: z.number().int().min(1).max(16).default(3).describe("Days of forecast, today first"),
    }),
    effect: "read",
    timeoutMs: 45_000,
    handler: async ({ days, ...where }, context) => {
      const place = await placeOf(where, context);
      return formatForecast(place, await fetchForecast(context, place, days));
    },
  }),
];
