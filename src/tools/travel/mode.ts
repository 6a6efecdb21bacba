import { z } from "zod";
import type { Preferences } from "../../state/preferences.js";

/** The ways OSRM routes; each is the profile segment of the request path. */
export const travelMode = z.enum(["driving", "cycling", "walking"]);
export type TravelMode = z.output<typeof travelMode>;

export const MODE_HELP =
  "driving, cycling or walking; default driving, or walking when the preferences say has_car: false";

/** `has_car: false` (or "no") in the preferences. */
function hasNoCar(preferences: Preferences): boolean {
  const value = preferences.has_car;
  if (typeof value === "string") return /^(false|no)$/i.test(value.trim());
  return value === false;
}

export interface ChosenMode {
  mode: TravelMode;
  /** Why this mode, when the preferences chose it rather than the request. */
  reason?: string;
}

/** The mode asked for, else the one the user's preferences suggest. */
export function chooseMode(requested: TravelMode | undefined, preferences: Preferences): ChosenMode {
  if (requested) return { mode: requested };
  if (hasNoCar(preferences)) {
    return { mode: "walking", reason: "the preferences say has_car: false; ask for cycling or driving instead" };
  }
  return { mode: "driving" };
}
