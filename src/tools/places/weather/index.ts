import { z } from "zod";
import { defineTool } from "../../kit/define-tool.js";
import { LOCATION_HELP, PLACE_PARAMETERS, resolvePlaceArgument } from "../../kit/geo/location.js";
import { fetchForecast } from "./forecast.js";
import { formatForecast } from "./report.js";

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
    handler: async ({ days, location, latitude, longitude }, context) => {
      const place = await resolvePlaceArgument(context, { text: location, latitude, longitude }, PLACE_PARAMETERS);
      return formatForecast(place, await fetchForecast(context, place, days));
    },
  }),
];
