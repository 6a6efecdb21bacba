import { z } from "zod";
import type { ToolContext } from "../define-tool.js";
import { type ExternalService, http } from "../http/index.js";
import type { Coordinates } from "./location.js";

export const OPEN_METEO: ExternalService = {
  name: "Open-Meteo",
  envVar: "MARVIN_OPEN_METEO_URL",
  defaultUrl: "https://api.open-meteo.com",
};

/** Open-Meteo leaves a value null where its model has none. */
const value = z.number().nullable();

const currentAnswer = z.object({
  timezone: z.string(),
  current: z.object({
    /** Local time at the place, "2026-11-24T11:15". */
    time: z.string(),
    weather_code: value,
    precipitation: value,
    wind_speed_10m: value,
  }),
});

/** The weather now at a place, in metric units (mm, km/h), with the place's local time. */
export type CurrentWeather = z.output<typeof currentAnswer>;

/** What the sky is doing now at `place`: for tools that weigh the weather rather than report it. */
export async function fetchCurrentWeather(context: ToolContext, place: Coordinates): Promise<CurrentWeather> {
  const query = {
    latitude: place.latitude,
    longitude: place.longitude,
    current: "weather_code,precipitation,wind_speed_10m",
    timezone: "auto",
  };
  return http(context).getJson(OPEN_METEO, "/v1/forecast", query, currentAnswer);
}
