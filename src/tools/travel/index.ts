import { z } from "zod";
import { defineTool, type ToolContext } from "../define-tool.js";
import { formatSteps } from "./directions.js";
import { formatDistance, formatTravelTime } from "./measures.js";
import { findRoute } from "./osrm.js";
import { formatFactor, trafficAdjustment } from "./traffic.js";
import { describePlace, describeTrip, planTrip, type TripArguments, tripParameters } from "./trip.js";

/** The trip the arguments name and OSRM's fastest route for it, with turn-by-turn steps when `steps`. */
async function tripAndRoute(context: ToolContext, args: TripArguments, waypoints?: string, steps = false) {
  const trip = await planTrip(context, args, waypoints);
  const route = await findRoute(context, trip.mode.mode, trip.points, steps);
  const span = `${formatTravelTime(route.duration)}, ${formatDistance(route.distance, trip.units)}`;
  return { trip, route, span };
}

export const travelTools = [
  defineTool({
    name: "estimate_travel_time",
    description: "Free-flow travel time and distance of the fastest route (OSRM, no traffic).",
    parameters: tripParameters,
    effect: "read",
    timeoutMs: 45_000,
    handler: async (args, context) => {
      const { trip, span } = await tripAndRoute(context, args);
      return `${describeTrip(trip)}: ${span} (free-flow, without traffic).`;
    },
  }),
  defineTool({
    name: "get_directions",
    description: "Turn-by-turn directions (OSRM): each maneuver with the street and distance.",
    parameters: tripParameters.extend({
      waypoints: z
        .string()
        .default("")
        .describe('Stops on the way, in order, separated by ";": "lat,lng;lat,lng" or saved labels'),
    }),
    effect: "read",
    timeoutMs: 60_000,
    handler: async ({ waypoints, ...args }, context) => {
      const { trip, route, span } = await tripAndRoute(context, args, waypoints, true);
      const legNames = route.legs.map(
        (_leg, index) => `${describePlace(trip.points[index]!)} to ${describePlace(trip.points[index + 1]!)}`,
      );
      return [`${describeTrip(trip)}: ${span}.`, ...formatSteps(route.legs, legNames, trip.units)].join("\n");
    },
  }),
  defineTool({
    name: "estimate_traffic_adjusted_time",
    description:
      "Travel time leaving now: OSRM's free-flow time adjusted for the weather now at the start (Open-Meteo) and " +
      "the local time of day (rush hours, night); shows each factor applied.",
    parameters: tripParameters,
    effect: "read",
    timeoutMs: 60_000,
    handler: async (args, context) => {
      const { trip, route, span } = await tripAndRoute(context, args);
      const adjustment = await trafficAdjustment(context, trip);
      const estimate = formatTravelTime(route.duration * adjustment.total);
      return [
        `${describeTrip(trip)}, leaving now: about ${estimate} (free-flow ${span}).`,
        "Factors applied (rules of thumb, not live traffic data):",
        ...adjustment.lines.map((text, index) => `${index + 1}. ${text}`),
        `Combined: ${formatFactor(adjustment.total)}.`,
      ].join("\n");
    },
  }),
];
