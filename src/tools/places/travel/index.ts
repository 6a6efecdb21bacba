import { z } from "zod";
import type { UnitSystem } from "../../../state/preferences.js";
import { defineTool, type ToolContext } from "../../kit/define-tool.js";
import { formatSteps } from "./directions.js";
import { formatDistance, formatSpeed, formatTravelTime } from "./measures.js";
import { type RouteEstimate, routeForMode } from "./mode-route.js";
import { formatFactor, trafficAdjustment } from "./traffic.js";
import { describePlace, describeTrip, planTrip, type TripArguments, tripParameters } from "./trip.js";

/** "estimated from the driving route's distance at 5 km/h, as MARVIN_OSRM_FOOT_URL is off" */
function describeEstimate({ speedKmh, reason }: RouteEstimate, units: UnitSystem): string {
  return `estimated from the driving route's distance at ${formatSpeed(speedKmh, units)}, as ${reason}`;
}

/**
 * The trip the arguments name and OSRM's fastest route for it, with turn-by-turn steps when
 * `steps`; `estimate` says how the time was estimated when no server routed the mode.
 */
async function tripAndRoute(context: ToolContext, args: TripArguments, waypoints?: string, steps = false) {
  const trip = await planTrip(context, args, waypoints);
  const route = await routeForMode(context, trip.mode.mode, trip.points, steps);
  const about = route.estimate ? "about " : "";
  const span = `${about}${formatTravelTime(route.duration)}, ${formatDistance(route.distance, trip.units)}`;
  const estimate = route.estimate && describeEstimate(route.estimate, trip.units);
  return { trip, route, span, estimate };
}

export const travelTools = [
  defineTool({
    name: "estimate_travel_time",
    description: "Free-flow travel time and distance of the fastest route (OSRM, no traffic).",
    parameters: tripParameters,
    effect: "read",
    timeoutMs: 45_000,
    handler: async (args, context) => {
      const { trip, span, estimate } = await tripAndRoute(context, args);
      return `${describeTrip(trip)}: ${span} (${estimate ?? "free-flow, without traffic"}).`;
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
      const { trip, route, span, estimate } = await tripAndRoute(context, args, waypoints, true);
      const legNames = route.legs.map(
        (_leg, index) => `${describePlace(trip.points[index]!)} to ${describePlace(trip.points[index + 1]!)}`,
      );
      const basis = estimate ? ` (${estimate}; the steps follow the driving route)` : "";
      return [`${describeTrip(trip)}: ${span}${basis}.`, ...formatSteps(route.legs, legNames, trip.units)].join("\n");
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
      const { trip, route, span, estimate } = await tripAndRoute(context, args);
      const adjustment = await trafficAdjustment(context, trip);
      const adjusted = formatTravelTime(route.duration * adjustment.total);
      return [
        `${describeTrip(trip)}, leaving now: about ${adjusted} (free-flow ${span}${estimate ? `, ${estimate}` : ""}).`,
        "Factors applied (rules of thumb, not live traffic data):",
        ...adjustment.lines.map((text, index) => `${index + 1}. ${text}`),
        `Combined: ${formatFactor(adjustment.total)}.`,
      ].join("\n");
    },
  }),
];
