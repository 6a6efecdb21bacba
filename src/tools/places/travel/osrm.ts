import { z } from "zod";
import { type ToolContext, ToolError } from "../../kit/define-tool.js";
import type { Coordinates } from "../../kit/geo/location.js";
import { type ExternalService, http, ServiceError } from "../../kit/http/index.js";
import type { TravelMode } from "./mode.js";

/** An OSRM server that routes one mode, and the profile segment its requests carry. */
interface OsrmServer {
  service: ExternalService;
  profile: string;
}

/**
 * OSRM's demo server routes cars only, whatever profile a request names; FOSSGIS runs public
 * servers with the foot and bike profiles (at most one request a second, their usage policy says).
 */
export const OSRM_SERVERS: Readonly<Record<TravelMode, OsrmServer>> = {
  driving: {
    service: { name: "OSRM", envVar: "MARVIN_OSRM_URL", defaultUrl: "https://router.project-osrm.org" },
    profile: "driving",
  },
  walking: {
    service: {
      name: "OSRM foot routing",
      envVar: "MARVIN_OSRM_FOOT_URL",
      defaultUrl: "https://routing.openstreetmap.de/routed-foot",
      minIntervalMs: 1000,
    },
    profile: "foot",
  },
  cycling: {
    service: {
      name: "OSRM bike routing",
      envVar: "MARVIN_OSRM_BIKE_URL",
      defaultUrl: "https://routing.openstreetmap.de/routed-bike",
      minIntervalMs: 1000,
    },
    profile: "bike",
  },
};

/** OSRM gives positions as [longitude, latitude]. */
const position = z.tuple([z.number(), z.number()]);

const step = z.object({
  distance: z.number(),
  duration: z.number(),
  name: z.string(),
  ref: z.string().optional(),
  maneuver: z.object({
    type: z.string(),
    modifier: z.string().optional(),
    exit: z.number().optional(),
    /** Degrees clockwise from north, after the maneuver. */
    bearing_after: z.number().optional(),
    location: position,
  }),
});

const leg = z.object({ distance: z.number(), duration: z.number(), summary: z.string(), steps: z.array(step) });

const routeAnswer = z.object({
  code: z.string(),
  message: z.string().optional(),
  routes: z.array(z.object({ distance: z.number(), duration: z.number(), legs: z.array(leg) })).optional(),
  waypoints: z.array(z.object({ name: z.string(), location: position })).optional(),
});

export type RouteStep = z.output<typeof step>;
export type RouteLeg = z.output<typeof leg>;

export interface Route {
  /** Meters. */
  distance: number;
  /** Seconds of free-flow travel. */
  duration: number;
  legs: RouteLeg[];
}

const errorBody = z.object({ code: z.string(), message: z.string().optional() });

/** The points of the request in order, as error messages name them. */
function pointName(index: number, count: number): string {
  if (index === 0) return "the starting point";
  if (index === count - 1) return "the destination";
  return `waypoint ${index}`;
}

/** OSRM's error codes (its HTTP API documentation) in words, with what to do about them. */
function explain(code: string, message: string, mode: TravelMode, points: Coordinates[]): string {
  const { service, profile } = OSRM_SERVERS[mode];
  const said = message ? ` ("${message}")` : "";
  switch (code) {
    case "NoRoute":
      return (
        `OSRM found no ${mode} route between these places (NoRoute): nothing open to ${mode} connects them, ` +
        "e.g. they are on different islands or continents. Check the places, or try another mode."
      );
    case "NoSegment": {
      const index = Number(/coordinate (\d+)/.exec(message)?.[1]);
      const which = Number.isInteger(index) ? pointName(index, points.length) : "one of the points";
      return (
        `OSRM could not place ${which} on a road usable for ${mode} (NoSegment)${said}: it may be in water or ` +
        "far from any street. Give coordinates or an address nearer a road."
      );
    }
    case "InvalidQuery":
    case "InvalidValue":
      return (
        `OSRM refused the coordinates (${code})${said}. Latitude goes from -90 to 90 and longitude from -180 to ` +
        '180; give places as "lat,lng", a saved label or an address.'
      );
    case "TooBig":
      return `The request has more points than this OSRM server accepts (TooBig)${said}. Use fewer waypoints.`;
    case "InvalidUrl":
    case "InvalidService":
    case "InvalidVersion":
    case "InvalidOptions":
      return (
        `OSRM did not accept the request (${code})${said}. Check that ${service.envVar} points at an OSRM server ` +
        `that offers the '${profile}' profile.`
      );
    default:
      return `OSRM could not route this trip (${code})${said}.`;
  }
}

/** The coded error in a 400 answer, when OSRM sent one. */
function codedError(error: ServiceError): { code: string; message: string } | undefined {
  if (error.status !== 400 || !error.body) return undefined;
  try {
    const parsed = errorBody.safeParse(JSON.parse(error.body));
    return parsed.success ? { code: parsed.data.code, message: parsed.data.message ?? "" } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The fastest route through `points` in order (free-flow, no traffic) on the mode's server, with
 * turn-by-turn steps when `steps` is set. OSRM wants "lon,lat".
 */
export async function findRoute(
  context: ToolContext,
  mode: TravelMode,
  points: Coordinates[],
  steps: boolean,
): Promise<Route> {
  const coordinates = points.map((point) => `${point.longitude},${point.latitude}`).join(";");
  const query = { overview: "false", steps: String(steps), alternatives: "false" };
  let answer: z.output<typeof routeAnswer>;
  try {
    const { service, profile } = OSRM_SERVERS[mode];
    answer = await http(context).getJson(service, `/route/v1/${profile}/${coordinates}`, query, routeAnswer);
  } catch (error) {
    const coded = error instanceof ServiceError ? codedError(error) : undefined;
    if (coded) throw new ToolError(explain(coded.code, coded.message, mode, points));
    throw error;
  }
  const [route] = answer.routes ?? [];
  if (answer.code !== "Ok" || !route) {
    throw new ToolError(explain(answer.code === "Ok" ? "NoRoute" : answer.code, answer.message ?? "", mode, points));
  }
  return route;
}
