import { z } from "zod";
import { loadPreferences, preferredUnits } from "../../../state/preferences.js";
import type { ToolContext } from "../../kit/define-tool.js";
import { OPEN_METEO } from "../../kit/geo/current-weather.js";
import type { Coordinates } from "../../kit/geo/location.js";
import { http } from "../../kit/http/index.js";

const CURRENT = ["temperature_2m", "apparent_temperature", "precipitation", "weather_code", "wind_speed_10m"];
const DAILY = [
  "weather_code",
  "temperature_2m_max",
  "temperature_2m_min",
  "apparent_temperature_max",
  "apparent_temperature_min",
  "precipitation_sum",
  "precipitation_probability_max",
  "wind_speed_10m_max",
  "sunrise",
  "sunset",
];

/** Open-Meteo leaves a value null where its model has none (e.g. no precipitation probability far ahead). */
const value = z.number().nullable();
const values = z.array(value);
const units = z.record(z.string(), z.string());

const forecastAnswer = z.object({
  timezone: z.string(),
  timezone_abbreviation: z.string().optional(),
  utc_offset_seconds: z.number(),
  current_units: units,
  current: z.object({
    time: z.string(),
    temperature_2m: value,
    apparent_temperature: value,
    precipitation: value,
    weather_code: value,
    wind_speed_10m: value,
  }),
  daily_units: units,
  daily: z.object({
    time: z.array(z.string()),
    weather_code: values,
    temperature_2m_max: values,
    temperature_2m_min: values,
    apparent_temperature_max: values,
    apparent_temperature_min: values,
    precipitation_sum: values,
    precipitation_probability_max: values,
    wind_speed_10m_max: values,
    sunrise: z.array(z.string()),
    sunset: z.array(z.string()),
  }),
});

export type Forecast = z.output<typeof forecastAnswer>;

const IMPERIAL = { temperature_unit: "fahrenheit", wind_speed_unit: "mph", precipitation_unit: "inch" };

/** `units: imperial` in the profile's preferences; Open-Meteo's metric defaults otherwise. */
async function unitQuery(context: ToolContext) {
  const { value: preferences } = await loadPreferences(context.profiles.paths(context.profileName));
  return preferredUnits(preferences) === "imperial" ? IMPERIAL : {};
}

/** Current conditions and `days` days of forecast, in the place's own time zone. */
export async function fetchForecast(context: ToolContext, place: Coordinates, days: number): Promise<Forecast> {
  const query = {
    latitude: place.latitude,
    longitude: place.longitude,
    current: CURRENT.join(","),
    daily: DAILY.join(","),
    timezone: "auto",
    forecast_days: days,
    ...(await unitQuery(context)),
  };
  return http(context).getJson(OPEN_METEO, "/v1/forecast", query, forecastAnswer);
}
