import type { Coordinates } from "../../kit/geo/location.js";
import { describeWeatherCode } from "../../kit/geo/wmo-codes.js";
import type { Forecast } from "./forecast.js";

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

function measure(amount: number | null | undefined, unit: string | undefined): string {
  return amount === null || amount === undefined ? "n/a" : `${amount} ${unit ?? ""}`.trim();
}

function range(low: number | null | undefined, high: number | null | undefined, unit: string | undefined): string {
  return `${measure(low, undefined)} to ${measure(high, unit)}`;
}

/** "Tue 2026-11-24" for Open-Meteo's local date. */
function dayName(date: string): string {
  return `${WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()] ?? ""} ${date}`.trim();
}

/** "07:42" from Open-Meteo's local "2026-11-24T07:42". */
const clock = (time: string | undefined) => time?.slice(11) || "n/a";

function currentLine({ current, current_units: units }: Forecast): string {
  return (
    `Now (${current.time.replace("T", " ")}): ${describeWeatherCode(current.weather_code)}, ` +
    `${measure(current.temperature_2m, units.temperature_2m)} ` +
    `(feels like ${measure(current.apparent_temperature, units.apparent_temperature)}), ` +
    `precipitation ${measure(current.precipitation, units.precipitation)}, ` +
    `wind ${measure(current.wind_speed_10m, units.wind_speed_10m)}`
  );
}

function dayLine({ daily, daily_units: units }: Forecast, day: number): string {
  const temperature = range(daily.temperature_2m_min[day], daily.temperature_2m_max[day], units.temperature_2m_max);
  const feelsLike = range(
    daily.apparent_temperature_min[day],
    daily.apparent_temperature_max[day],
    units.apparent_temperature_max,
  );
  const chance = daily.precipitation_probability_max[day];
  const likelihood = chance === null || chance === undefined ? "" : ` (${chance}% chance)`;
  return (
    `${dayName(daily.time[day]!)}: ${describeWeatherCode(daily.weather_code[day] ?? null)}, ` +
    `${temperature} (feels like ${feelsLike}), ` +
    `precipitation ${measure(daily.precipitation_sum[day], units.precipitation_sum)}${likelihood}, ` +
    `wind up to ${measure(daily.wind_speed_10m_max[day], units.wind_speed_10m_max)}, ` +
    `sunrise ${clock(daily.sunrise[day])}, sunset ${clock(daily.sunset[day])}`
  );
}

/** The forecast as the model reads it: where, the time zone, now, then one line a day. */
export function formatForecast(place: Coordinates, forecast: Forecast): string {
  const { timezone, timezone_abbreviation: abbreviation } = forecast;
  const zone = abbreviation ? `${timezone} (${abbreviation})` : timezone;
  const where = `${place.label} (${place.latitude}, ${place.longitude})`;
  const days = forecast.daily.time.map((_date, day) => dayLine(forecast, day));
  return [`Weather for ${where}; local times in ${zone}.`, currentLine(forecast), ...days].join("\n");
}
