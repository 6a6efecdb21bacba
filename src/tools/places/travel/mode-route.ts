import { errorMessage } from "../../../shared/error-message.js";
import type { ToolContext } from "../../kit/define-tool.js";
import type { Coordinates } from "../../kit/geo/location.js";
import { ServiceError, type ServiceErrorKind } from "../../kit/http/index.js";
import type { TravelMode } from "./mode.js";
import { findRoute, OSRM_SERVERS, type Route } from "./osrm.js";

/** Steady speeds for a time estimated from a distance: an unhurried walk, everyday cycling. */
const ESTIMATE_KMH: Readonly<Record<Exclude<TravelMode, "driving">, number>> = { walking: 5, cycling: 15 };

/** Failures of a foot or bike server that the driving route can stand in for. */
const STAND_IN_FOR: ReadonlySet<ServiceErrorKind> = new Set(["status", "rate-limited", "timeout", "network"]);

/** Set when no server routed the mode: the time is the driving route's distance at `speedKmh`. */
export interface RouteEstimate {
  speedKmh: number;
  /** Why there is no route for the mode, as a clause: "MARVIN_OSRM_FOOT_URL is off". */
  reason: string;
}

interface ModeRoute extends Route {
  estimate?: RouteEstimate;
}

/** The driving route with every duration replaced by its distance at `speedKmh`. */
function atSpeed(route: Route, speedKmh: number): Route {
  const seconds = (meters: number) => meters / (speedKmh / 3.6);
  return {
    distance: route.distance,
    duration: seconds(route.distance),
    legs: route.legs.map((leg) => ({
      ...leg,
      duration: seconds(leg.distance),
      steps: leg.steps.map((step) => ({ ...step, duration: seconds(step.distance) })),
    })),
  };
}

/**
 * The route for the mode from its own server; for walking and cycling, when that server is off
 * (`MARVIN_OSRM_FOOT_URL=off`) or unavailable, the driving route with its time estimated.
 */
export async function routeForMode(
  context: ToolContext,
  mode: TravelMode,
  points: Coordinates[],
  steps: boolean,
): Promise<ModeRoute> {
  if (mode === "driving") return findRoute(context, mode, points, steps);
  const { envVar } = OSRM_SERVERS[mode].service;
  let reason = `${envVar} is off`;
  if (context.env[envVar]?.trim().toLowerCase() !== "off") {
    try {
      return await findRoute(context, mode, points, steps);
    } catch (error) {
      if (!(error instanceof ServiceError) || !STAND_IN_FOR.has(error.kind)) throw error;
      reason = `the ${mode} route failed: ${errorMessage(error).replace(/\.$/, "")}`;
    }
  }
  const speedKmh = ESTIMATE_KMH[mode];
  return { ...atSpeed(await findRoute(context, "driving", points, steps), speedKmh), estimate: { speedKmh, reason } };
}
