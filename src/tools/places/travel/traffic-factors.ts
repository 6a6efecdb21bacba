import type { TravelMode } from "./mode.js";

/**
 * Rules of thumb for how much longer than OSRM's free-flow time a trip takes, per mode. They are
 * not live traffic; they are what a careful person adds before leaving.
 */
type ModeFactors = Readonly<Record<TravelMode, number>>;

interface WeatherFactor {
  /** WMO weather codes, as Open-Meteo reports them. */
  codes: readonly number[];
  condition: string;
  factor: ModeFactors;
}

/** Weather now at the origin. Codes not listed (0–3: clear to overcast) leave the time as it is. */
const WEATHER_FACTORS: readonly WeatherFactor[] = [
  { codes: [45, 48], condition: "fog", factor: { driving: 1.2, cycling: 1.1, walking: 1.0 } },
  { codes: [51, 53, 55], condition: "drizzle", factor: { driving: 1.05, cycling: 1.1, walking: 1.05 } },
  { codes: [61, 80], condition: "light rain", factor: { driving: 1.1, cycling: 1.15, walking: 1.05 } },
  { codes: [63, 81], condition: "rain", factor: { driving: 1.15, cycling: 1.2, walking: 1.1 } },
  { codes: [65, 82], condition: "heavy rain", factor: { driving: 1.25, cycling: 1.35, walking: 1.15 } },
  { codes: [56, 57, 66, 67], condition: "freezing rain (ice)", factor: { driving: 1.4, cycling: 1.5, walking: 1.3 } },
  { codes: [71, 77, 85], condition: "light snow", factor: { driving: 1.25, cycling: 1.4, walking: 1.2 } },
  { codes: [73], condition: "snow", factor: { driving: 1.4, cycling: 1.6, walking: 1.3 } },
  { codes: [75, 86], condition: "heavy snow", factor: { driving: 1.6, cycling: 1.8, walking: 1.4 } },
  { codes: [95, 96, 99], condition: "thunderstorm", factor: { driving: 1.3, cycling: 1.4, walking: 1.2 } },
];

/** Wind at the origin, strongest first: the first row whose speed is reached applies. */
const WIND_FACTORS: readonly { fromKmh: number; condition: string; factor: ModeFactors }[] = [
  { fromKmh: 60, condition: "storm-force wind", factor: { driving: 1.1, cycling: 1.4, walking: 1.15 } },
  { fromKmh: 40, condition: "strong wind", factor: { driving: 1.05, cycling: 1.2, walking: 1.05 } },
  { fromKmh: 25, condition: "fresh breeze", factor: { driving: 1.0, cycling: 1.1, walking: 1.0 } },
];

interface TimeOfDayFactor {
  weekend: boolean;
  /** Local clock times, "HH:MM"; `to` is exclusive, and a period may run past midnight. */
  from: string;
  to: string;
  period: string;
  /** Only driving is slowed by other traffic. */
  driving: number;
}

/** Local time at the origin. */
const TIME_OF_DAY_FACTORS: readonly TimeOfDayFactor[] = [
  { weekend: false, from: "22:00", to: "06:00", period: "night, empty roads", driving: 1.0 },
  { weekend: false, from: "06:00", to: "07:00", period: "early morning", driving: 1.05 },
  { weekend: false, from: "07:00", to: "09:30", period: "morning rush hour", driving: 1.35 },
  { weekend: false, from: "09:30", to: "16:00", period: "daytime traffic", driving: 1.1 },
  { weekend: false, from: "16:00", to: "18:30", period: "evening rush hour", driving: 1.4 },
  { weekend: false, from: "18:30", to: "22:00", period: "evening", driving: 1.05 },
  { weekend: true, from: "22:00", to: "08:00", period: "weekend night, empty roads", driving: 1.0 },
  { weekend: true, from: "08:00", to: "22:00", period: "weekend daytime traffic", driving: 1.05 },
];

export interface AppliedFactor {
  /** What the factor is about: "weather", "wind", "time of day". */
  aspect: string;
  condition: string;
  factor: number;
}

export function weatherFactor(code: number | null, mode: TravelMode): AppliedFactor {
  const row = code === null ? undefined : WEATHER_FACTORS.find((candidate) => candidate.codes.includes(code));
  if (!row) return { aspect: "weather", condition: code === null ? "unknown" : "dry", factor: 1 };
  return { aspect: "weather", condition: row.condition, factor: row.factor[mode] };
}

export function windFactor(kilometersPerHour: number | null, mode: TravelMode): AppliedFactor {
  const row = WIND_FACTORS.find((candidate) => (kilometersPerHour ?? 0) >= candidate.fromKmh);
  if (!row) return { aspect: "wind", condition: kilometersPerHour === null ? "unknown" : "light", factor: 1 };
  return { aspect: "wind", condition: row.condition, factor: row.factor[mode] };
}

const minutesOf = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));

function within(minute: number, { from, to }: TimeOfDayFactor): boolean {
  const start = minutesOf(from);
  const end = minutesOf(to);
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}

/** `weekday` 0 is Sunday; `clock` is the local "HH:MM". */
export function timeOfDayFactor(weekday: number, clock: string, mode: TravelMode): AppliedFactor {
  const weekend = weekday === 0 || weekday === 6;
  const minute = minutesOf(clock);
  const row = TIME_OF_DAY_FACTORS.find((candidate) => candidate.weekend === weekend && within(minute, candidate))!;
  const factor = mode === "driving" ? row.driving : 1;
  const condition = mode === "driving" ? row.period : `${row.period}; traffic does not slow ${mode}`;
  return { aspect: "time of day", condition, factor };
}
