import { z } from "zod";
import type { Preferences } from "../../../state/preferences.js";
import { enumWithSynonyms } from "../../kit/lenient-parameters.js";

/** The ways Marvin routes, each on an OSRM server of its own. */
const travelModes = z.enum(["driving", "cycling", "walking"]);
export type TravelMode = z.output<typeof travelModes>;

/** Other words models and people use for the modes. */
const MODE_SYNONYMS: Record<string, TravelMode> = {
  drive: "driving",
  car: "driving",
  auto: "driving",
  cycle: "cycling",
  bicycle: "cycling",
  bicycling: "cycling",
  bike: "cycling",
  biking: "cycling",
  walk: "walking",
  foot: "walking",
  "on foot": "walking",
  pedestrian: "walking",
};

export const travelMode = enumWithSynonyms(travelModes, MODE_SYNONYMS);

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
