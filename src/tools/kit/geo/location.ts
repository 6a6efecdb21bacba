import { loadSavedPlaces } from "../../../state/saved-places.js";
import { type ToolContext, ToolError } from "../define-tool.js";
import { searchPlaces } from "./nominatim.js";

export interface Coordinates {
  latitude: number;
  longitude: number;
  /** What the coordinates stand for, for the answer: "home", "Bern, Switzerland", "46.95, 7.45". */
  label: string;
}

/** How tool descriptions explain a location argument. */
export const LOCATION_HELP = 'a saved place label such as "home", a place name or address, or "lat,lng"';

const LAT_LNG = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/;

function parseLatLng(text: string): Coordinates | undefined {
  const match = LAT_LNG.exec(text);
  if (!match) return undefined;
  const latitude = Number(match[1]);
  const longitude = Number(match[2]);
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) {
    throw new ToolError(`'${text}' is not a position on Earth: latitude goes from -90 to 90, longitude -180 to 180.`);
  }
  return { latitude, longitude, label: `${latitude}, ${longitude}` };
}

async function savedPlace(context: ToolContext, label: string): Promise<Coordinates | undefined> {
  const { value: places } = await loadSavedPlaces(context.profiles.paths(context.profileName).savedPlaces);
  const wanted = label.trim().toLowerCase();
  const place = places.find((candidate) => candidate.label.trim().toLowerCase() === wanted);
  if (!place) return undefined;
  if (place.lat || place.lng) return { latitude: place.lat, longitude: place.lng, label: place.label };
  if (place.address) return { ...(await geocode(context, place.address)), label: place.label };
  throw new ToolError(
    `The saved place '${place.label}' has neither coordinates nor an address. Add them with save_place.`,
  );
}

async function geocode(context: ToolContext, text: string): Promise<Coordinates> {
  const [best] = await searchPlaces(context, text, 1);
  if (!best) {
    throw new ToolError(`No place called '${text}' was found. Try a fuller address, a city name, or "lat,lng".`);
  }
  return { latitude: best.latitude, longitude: best.longitude, label: best.address };
}

/** Coordinates for "lat,lng", a saved place label of the profile, or a place name (looked up on Nominatim). */
export async function resolveLocation(context: ToolContext, location: string): Promise<Coordinates> {
  const text = location.trim();
  if (!text) throw new ToolError(`Give a location: ${LOCATION_HELP}.`);
  return parseLatLng(text) ?? (await savedPlace(context, text)) ?? (await geocode(context, text));
}

/** A place as a tool takes it: text (the model's usual way), or the upstream tools' separate coordinates. */
interface PlaceArgument {
  text?: string | undefined;
  latitude?: number | undefined;
  longitude?: number | undefined;
}

/** The tool's own names for a place's parameters, for the message when neither form is given. */
interface PlaceParameterNames {
  /** "where", "where from". */
  question: string;
  text: string;
  latitude: string;
  longitude: string;
}

/** The parameter names most tools use for one place: `location`, or `latitude` and `longitude`. */
export const PLACE_PARAMETERS: PlaceParameterNames = {
  question: "where",
  text: "location",
  latitude: "latitude",
  longitude: "longitude",
};

/** Coordinates for a place argument: its text when given, else its latitude and longitude. */
export async function resolvePlaceArgument(
  context: ToolContext,
  { text, latitude, longitude }: PlaceArgument,
  names: PlaceParameterNames,
): Promise<Coordinates> {
  if (text?.trim()) return resolveLocation(context, text);
  if (latitude === undefined || longitude === undefined) {
    throw new ToolError(
      `Say ${names.question}: give ${names.text} (${LOCATION_HELP}), or ${names.latitude} and ${names.longitude}.`,
    );
  }
  return { latitude, longitude, label: `${latitude}, ${longitude}` };
}
