import { errorMessage } from "../../../shared/error-message.js";
import type { ToolContext } from "../../kit/define-tool.js";
import { type CurrentWeather, fetchCurrentWeather } from "../../kit/geo/current-weather.js";
import { describeWeatherCode } from "../../kit/geo/wmo-codes.js";
import { ServiceError } from "../../kit/http/index.js";
import { formatSpeed } from "./measures.js";
import { type AppliedFactor, timeOfDayFactor, weatherFactor, windFactor } from "./traffic-factors.js";
import type { Trip } from "./trip.js";

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

interface Adjustment {
  /** Product of all factors. */
  total: number;
  /** One line per factor: what was seen and the multiplier it gave. */
  lines: string[];
}

export const formatFactor = (factor: number) => `×${factor.toFixed(2)}`;
const line = (seen: string, applied: AppliedFactor) =>
  `${seen} → ${formatFactor(applied.factor)} (${applied.condition})`;

/** The origin's local weekday and "HH:MM": from Open-Meteo's local time, else this computer's clock. */
function localTime(weather: CurrentWeather | undefined): { weekday: number; clock: string; source: string } {
  if (weather) {
    const [date, clock] = weather.current.time.split("T");
    const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
    return { weekday, clock: clock!.slice(0, 5), source: `local time at the start (${weather.timezone})` };
  }
  const now = new Date();
  const clock = `${String(now.getHours()).padStart(2, "0")}:${String(now.getMinutes()).padStart(2, "0")}`;
  return { weekday: now.getDay(), clock, source: "by this computer's clock" };
}

/** How much the weather now at the start and the time of day stretch the free-flow time. */
export async function trafficAdjustment(context: ToolContext, trip: Trip): Promise<Adjustment> {
  const { mode } = trip.mode;
  let weather: CurrentWeather | undefined;
  let weatherLine: string;
  let windLine: string;
  const factors: AppliedFactor[] = [];
  try {
    weather = await fetchCurrentWeather(context, trip.points[0]!);
    const { weather_code: code, wind_speed_10m: wind } = weather.current;
    const sky = weatherFactor(code, mode);
    const breeze = windFactor(wind, mode);
    factors.push(sky, breeze);
    weatherLine = line(`Weather at the start now: ${describeWeatherCode(code)}`, sky);
    windLine = line(`Wind: ${wind === null ? "unknown" : formatSpeed(wind, trip.units)}`, breeze);
  } catch (error) {
    if (!(error instanceof ServiceError) || error.kind === "cancelled") throw error;
    weatherLine = `Weather: unknown, no factor applied (${errorMessage(error)})`;
    windLine = "Wind: unknown, no factor applied";
  }
  const { weekday, clock, source } = localTime(weather);
  const hour = timeOfDayFactor(weekday, clock, mode);
  factors.push(hour);
  const total = factors.reduce((product, applied) => product * applied.factor, 1);
  const timeLine = line(`Time of day: ${WEEKDAYS[weekday]} ${clock}, ${source}`, hour);
  return { total, lines: [weatherLine, windLine, timeLine] };
}
