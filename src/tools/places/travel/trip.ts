import { z } from "zod";
import { loadPreferences, preferredUnits, type UnitSystem } from "../../../state/preferences.js";
import type { ToolContext } from "../../kit/define-tool.js";
import { type Coordinates, LOCATION_HELP, resolveLocation, resolvePlaceArgument } from "../../kit/geo/location.js";
import { type ChosenMode, chooseMode, MODE_HELP, travelMode } from "./mode.js";

/** The parameters every travel tool takes: the upstream tools' coordinates, or places as text. */
export const tripParameters = z.object({
  origin: z.string().optional().describe(`Where from: ${LOCATION_HELP}`),
  destination: z.string().optional().describe(`Where to: ${LOCATION_HELP}`),
  origin_lat: z.number().min(-90).max(90).optional(),
  origin_lng: z.number().min(-180).max(180).optional(),
  dest_lat: z.number().min(-90).max(90).optional(),
  dest_lng: z.number().min(-180).max(180).optional(),
  mode: travelMode.optional().describe(MODE_HELP),
});

export type TripArguments = z.output<typeof tripParameters>;

export interface Trip {
  /** Origin, waypoints in order, destination. */
  points: Coordinates[];
  mode: ChosenMode;
  units: UnitSystem;
}

/** "home (46.9466, 7.4444)"; bare coordinates are not repeated. */
export function describePlace(place: Coordinates): string {
  const coordinates = `${place.latitude}, ${place.longitude}`;
  return place.label === coordinates ? coordinates : `${place.label} (${coordinates})`;
}

/** "Driving from home (…) to work (…)", with the reason for the mode when the preferences chose it. */
export function describeTrip({ points, mode }: Trip): string {
  const origin = describePlace(points[0]!);
  const destination = describePlace(points.at(-1)!);
  const via = points.length > 2 ? ` via ${points.slice(1, -1).map(describePlace).join(", ")}` : "";
  const how = `${mode.mode[0]!.toUpperCase()}${mode.mode.slice(1)}`;
  return `${how} from ${origin} to ${destination}${via}${mode.reason ? ` (${mode.reason})` : ""}`;
}

/** Stops given as "lat,lng;lat,lng" (saved labels and place names work too), in order. */
async function resolveWaypoints(context: ToolContext, waypoints: string): Promise<Coordinates[]> {
  const stops: Coordinates[] = [];
  for (const stop of waypoints.split(";").map((part) => part.trim())) {
    if (stop) stops.push(await resolveLocation(context, stop));
  }
  return stops;
}

/** Where the trip starts, stops and ends, how, and in which units to answer. */
export async function planTrip(context: ToolContext, args: TripArguments, waypoints = ""): Promise<Trip> {
  const origin = await resolvePlaceArgument(
    context,
    { text: args.origin, latitude: args.origin_lat, longitude: args.origin_lng },
    { question: "where from", text: "origin", latitude: "origin_lat", longitude: "origin_lng" },
  );
  const destination = await resolvePlaceArgument(
    context,
    { text: args.destination, latitude: args.dest_lat, longitude: args.dest_lng },
    { question: "where to", text: "destination", latitude: "dest_lat", longitude: "dest_lng" },
  );
  const stops = await resolveWaypoints(context, waypoints);
  const { value: preferences } = await loadPreferences(context.profiles.paths(context.profileName));
  return {
    points: [origin, ...stops, destination],
    mode: chooseMode(args.mode, preferences),
    units: preferredUnits(preferences),
  };
}
