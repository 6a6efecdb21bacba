/**
 * Answers of OSRM, Open-Meteo (current weather only) and Frankfurter, shaped like the real
 * services' (OSRM HTTP API docs: Route, RouteLeg, RouteStep, StepManeuver, Waypoint objects).
 */

interface Maneuver {
  type: string;
  modifier?: string;
  exit?: number;
  bearing_before: number;
  bearing_after: number;
  location: [number, number];
}

function step(name: string, distance: number, duration: number, maneuver: Maneuver, ref?: string) {
  return {
    // With geometries=polyline (the default) each step carries its encoded shape.
    geometry: "qdh~Gu`ql@p@`BfAfD",
    maneuver,
    mode: "driving",
    driving_side: "right",
    name,
    ...(ref ? { ref } : {}),
    intersections: [{ out: 0, entry: [true], bearings: [maneuver.bearing_after], location: maneuver.location }],
    weight: duration,
    duration,
    distance,
  };
}

/** Bundesplatz to Zytglogge, Bern. */
const LEG_TO_ZYTGLOGGE = {
  summary: "Bundesgasse, Kochergasse",
  distance: 612.4,
  duration: 98.3,
  steps: [
    step("Bundesgasse", 221.7, 38.1, {
      type: "depart",
      bearing_before: 0,
      bearing_after: 72,
      location: [7.444179, 46.946532],
    }),
    step("Kochergasse", 305.2, 44.6, {
      type: "turn",
      modifier: "left",
      bearing_before: 72,
      bearing_after: 348,
      location: [7.447061, 46.947148],
    }),
    step("", 85.5, 15.6, {
      type: "roundabout",
      modifier: "right",
      exit: 2,
      bearing_before: 348,
      bearing_after: 61,
      location: [7.446302, 46.949781],
    }),
    step("Kramgasse", 0, 0, {
      type: "arrive",
      modifier: "right",
      bearing_before: 61,
      bearing_after: 0,
      location: [7.447744, 46.947956],
    }),
  ],
};

/** Zytglogge to the A6 entrance at Wankdorf. */
const LEG_TO_WANKDORF = {
  summary: "Papiermühlestrasse, A6",
  distance: 3870.9,
  duration: 402.7,
  steps: [
    step("Kramgasse", 140.2, 29.9, {
      type: "depart",
      bearing_before: 0,
      bearing_after: 242,
      location: [7.447744, 46.947956],
    }),
    step("Papiermühlestrasse", 2890.4, 281.3, {
      type: "new name",
      modifier: "straight",
      bearing_before: 242,
      bearing_after: 40,
      location: [7.449013, 46.951224],
    }),
    step(
      "",
      840.3,
      91.5,
      {
        type: "on ramp",
        modifier: "slight right",
        bearing_before: 40,
        bearing_after: 58,
        location: [7.465441, 46.962389],
      },
      "A6",
    ),
    step(
      "",
      0,
      0,
      {
        type: "arrive",
        bearing_before: 58,
        bearing_after: 0,
        location: [7.474412, 46.965731],
      },
      "A6",
    ),
  ],
};

const SNAPPED = [
  { name: "Bundesgasse", location: [7.444179, 46.946532], distance: 4.81 },
  { name: "Kramgasse", location: [7.447744, 46.947956], distance: 2.37 },
  { name: "A6", location: [7.474412, 46.965731], distance: 11.02 },
];

/**
 * OSRM's route answer over the given legs (default: one leg in Bern). With `steps` false OSRM
 * still sends each leg, but with an empty step list and summary.
 */
export function osrmRoute(options: { steps?: boolean; legs?: "one" | "two" } = {}) {
  const legs = options.legs === "two" ? [LEG_TO_ZYTGLOGGE, LEG_TO_WANKDORF] : [LEG_TO_ZYTGLOGGE];
  const shown = legs.map((leg) => ({
    ...leg,
    weight: leg.duration,
    steps: options.steps ? leg.steps : [],
    summary: options.steps ? leg.summary : "",
  }));
  const distance = legs.reduce((sum, leg) => sum + leg.distance, 0);
  const duration = legs.reduce((sum, leg) => sum + leg.duration, 0);
  return {
    code: "Ok",
    routes: [{ legs: shown, weight_name: "routability", weight: duration, duration, distance }],
    waypoints: SNAPPED.slice(0, legs.length + 1).map((point) => ({
      hint: "KSoKADRYroqUBAEAEAAAABkAAAAGAAAAAAAAABhnCQCLtwAA_0vMAKlYIQM8TMwArVghAwEAAQH1a66g",
      ...point,
    })),
  };
}

/** OSRM's HTTP 400 bodies, with the messages osrm-routed writes. */
export const OSRM_ERRORS = {
  noRoute: { code: "NoRoute", message: "Impossible route between points" },
  noSegment: { code: "NoSegment", message: "Could not find a matching segment for coordinate 1" },
  invalidValue: { code: "InvalidValue", message: "Invalid coordinate value." },
  tooBig: { code: "TooBig", message: "Number of entries 120 is higher than current maximum (100)" },
};

/** Open-Meteo's answer to `current=weather_code,precipitation,wind_speed_10m&timezone=auto`. */
export function openMeteoCurrent(now: { time: string; weatherCode: number; precipitation: number; wind: number }) {
  return {
    latitude: 46.94,
    longitude: 7.44,
    generationtime_ms: 0.02956390380859375,
    utc_offset_seconds: 3600,
    timezone: "Europe/Zurich",
    timezone_abbreviation: "GMT+1",
    elevation: 549,
    current_units: {
      time: "iso8601",
      interval: "seconds",
      weather_code: "wmo code",
      precipitation: "mm",
      wind_speed_10m: "km/h",
    },
    current: {
      time: now.time,
      interval: 900,
      weather_code: now.weatherCode,
      precipitation: now.precipitation,
      wind_speed_10m: now.wind,
    },
  };
}

/** Frankfurter's /v1/latest?base=USD&symbols=EUR, byte for byte ("1.0" as the service writes it). */
export const FRANKFURTER_USD_EUR = '{"amount":1.0,"base":"USD","date":"2026-05-08","rates":{"EUR":0.8812}}';

/** Frankfurter's /v1/latest?base=EUR&symbols=JPY. */
export const FRANKFURTER_EUR_JPY = '{"amount":1.0,"base":"EUR","date":"2026-05-08","rates":{"JPY":168.47}}';

/** Frankfurter's answer for a currency it does not know (HTTP 404). */
export const FRANKFURTER_NOT_FOUND = { message: "not found" };
