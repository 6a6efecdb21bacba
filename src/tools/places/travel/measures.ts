import type { UnitSystem } from "../../../state/preferences.js";

const METERS_PER_MILE = 1609.344;
const FEET_PER_METER = 3.28084;

/** One decimal below 100, whole numbers above. */
const rounded = (amount: number) => (amount < 100 ? Number(amount.toFixed(1)) : Math.round(amount));

/** "850 m", "12.4 km"; "900 ft", "7.7 mi" for imperial users. */
export function formatDistance(meters: number, units: UnitSystem): string {
  if (units === "imperial") {
    const miles = meters / METERS_PER_MILE;
    if (miles < 0.1) return `${Math.round((meters * FEET_PER_METER) / 10) * 10} ft`;
    return `${rounded(miles)} mi`;
  }
  if (meters < 1000) return `${Math.round(meters / 10) * 10} m`;
  return `${rounded(meters / 1000)} km`;
}

/** "under a minute", "25 min", "1 h 05 min". */
export function formatTravelTime(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  if (minutes < 1) return "under a minute";
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}

/** A speed given in km/h (Open-Meteo's wind, a walking pace), in the user's units. */
export function formatSpeed(kilometersPerHour: number, units: UnitSystem): string {
  if (units === "imperial") return `${Math.round((kilometersPerHour * 1000) / METERS_PER_MILE)} mph`;
  return `${Math.round(kilometersPerHour)} km/h`;
}
