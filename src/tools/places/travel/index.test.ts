import type { ServerResponse } from "node:http";
import { describe, expect, test } from "../../../../tests/support/fixtures.js";
import { type LocalHttpServers, type SeenRequest, sendJson } from "../../../../tests/support/local-http-server.js";
import { OSRM_ERRORS, openMeteoCurrent, osrmRoute } from "../../../../tests/support/payloads/travel.js";
import type { ToolHarnessPool } from "../../../../tests/support/tool-harness.js";

type Answer = (request: SeenRequest, response: ServerResponse) => void;

/** OSRM as osrm-routed answers: steps only when the query asks for them. */
const routeAnswer =
  (legs: "one" | "two" = "one"): Answer =>
  (request, response) => {
    const steps = new URL(request.url, "http://osrm").searchParams.get("steps") === "true";
    sendJson(response, osrmRoute({ steps, legs }));
  };

const answerJson =
  (body: unknown, status = 200): Answer =>
  (_request, response) =>
    sendJson(response, body, status);

const RAINY_RUSH_HOUR = openMeteoCurrent({ time: "2026-11-24T08:15", weatherCode: 63, precipitation: 1.2, wind: 14.8 });

interface SetUp {
  /** How every OSRM server answers: the driving one, and the foot and bike ones unless they have their own. */
  osrm?: Answer;
  foot?: Answer;
  bike?: Answer;
  /** More settings, e.g. `MARVIN_OSRM_FOOT_URL: "off"`. */
  env?: Record<string, string>;
  openMeteo?: Answer;
  places?: Record<string, [number, number]>;
  preferences?: Record<string, string>;
  /** MARVIN_HTTP_TIMEOUT, in seconds. */
  httpTimeout?: string;
}

interface Pools {
  home: string;
  harnesses: ToolHarnessPool;
  httpServers: LocalHttpServers;
}

/**
 * A harness whose OSRM servers (driving, foot, bike) and Open-Meteo are local fixtures, with saved
 * places and preferences set through tools.
 */
async function openHarness({ home, harnesses, httpServers }: Pools, setUp: SetUp) {
  const osrm = await httpServers.start(setUp.osrm ?? routeAnswer());
  const foot = await httpServers.start(setUp.foot ?? setUp.osrm ?? routeAnswer());
  const bike = await httpServers.start(setUp.bike ?? setUp.osrm ?? routeAnswer());
  const openMeteo = await httpServers.start(setUp.openMeteo ?? answerJson(RAINY_RUSH_HOUR));
  const env = {
    MARVIN_OSRM_URL: osrm.origin,
    MARVIN_OSRM_FOOT_URL: `${foot.origin}/routed-foot`,
    MARVIN_OSRM_BIKE_URL: `${bike.origin}/routed-bike`,
    MARVIN_OPEN_METEO_URL: openMeteo.origin,
    ...(setUp.httpTimeout ? { MARVIN_HTTP_TIMEOUT: setUp.httpTimeout } : {}),
    ...setUp.env,
  };
  const harness = await harnesses.open({ home, env });
  for (const [label, [lat, lng]] of Object.entries(setUp.places ?? {})) {
    await harness.ok("save_place", { label, lat, lng });
  }
  for (const [key, value] of Object.entries(setUp.preferences ?? {})) {
    await harness.ok("update_preferences", { key, value });
  }
  return { harness, osrm, foot, bike, openMeteo };
}

const it = test.extend<{ open: (setUp?: SetUp) => ReturnType<typeof openHarness> }>({
  open: async ({ home, harnesses, httpServers }, use) => {
    await use((setUp = {}) => openHarness({ home, harnesses, httpServers }, setUp));
  },
});

const HOME_AND_WORK = { home: [46.9466, 7.4444], work: [46.9657, 7.4744] } satisfies SetUp["places"];
const query = (request: SeenRequest) => Object.fromEntries(new URL(request.url, "http://fixture").searchParams);
const path = (request: SeenRequest) => new URL(request.url, "http://fixture").pathname;

describe("estimate_travel_time", () => {
  it("routes saved places, sending OSRM lon,lat on the driving profile", async ({ open }) => {
    const { harness, osrm } = await open({ places: HOME_AND_WORK });
    const text = await harness.ok("estimate_travel_time", { origin: "home", destination: "Work" });
    expect(text).toBe(
      "Driving from home (46.9466, 7.4444) to work (46.9657, 7.4744): 2 min, 610 m (free-flow, without traffic).",
    );
    expect(path(osrm.requests[0]!)).toBe("/route/v1/driving/7.4444,46.9466;7.4744,46.9657");
    expect(query(osrm.requests[0]!)).toEqual({ overview: "false", steps: "false", alternatives: "false" });
  });

  it("takes the upstream tool's coordinates and mode, routing bicycles on the bike server", async ({ open }) => {
    const { harness, osrm, bike } = await open();
    const args = { origin_lat: 46.9466, origin_lng: 7.4444, dest_lat: 46.9657, dest_lng: 7.4744, mode: "cycling" };
    expect(await harness.ok("estimate_travel_time", args)).toMatch(/^Cycling from 46\.9466, 7\.4444 to 46\.9657/);
    expect(path(bike.requests[0]!)).toBe("/routed-bike/route/v1/bike/7.4444,46.9466;7.4744,46.9657");
    expect(osrm.requests).toHaveLength(0);
  });

  it("understands the words models use for the modes", async ({ open }) => {
    const { harness, bike, foot } = await open();
    const trip = { origin: "46.9466,7.4444", destination: "46.9657,7.4744" };
    expect(await harness.ok("estimate_travel_time", { ...trip, mode: "bicycle" })).toMatch(/^Cycling from /);
    expect(await harness.ok("estimate_travel_time", { ...trip, mode: "Foot" })).toMatch(/^Walking from /);
    expect(path(bike.requests[0]!)).toMatch(/^\/routed-bike\/route\/v1\/bike\//);
    expect(path(foot.requests[0]!)).toMatch(/^\/routed-foot\/route\/v1\/foot\//);
    expect(await harness.failure("estimate_travel_time", { ...trip, mode: "constructor" })).toMatch(
      /^Validation error for estimate_travel_time:\n {2}- mode: Invalid option: expected one of "driving"\|"cycling"\|"walking"\n/,
    );
  });

  it("walks by default for a user without a car on the foot server, in imperial units", async ({ open }) => {
    const preferences = { has_car: "false", units: "imperial" };
    const { harness, osrm, foot } = await open({ places: HOME_AND_WORK, preferences });
    expect(await harness.ok("estimate_travel_time", { origin: "home", destination: "work" })).toBe(
      "Walking from home (46.9466, 7.4444) to work (46.9657, 7.4744) (the preferences say has_car: false; ask for " +
        "cycling or driving instead): 2 min, 0.4 mi (free-flow, without traffic).",
    );
    expect(path(foot.requests[0]!)).toBe("/routed-foot/route/v1/foot/7.4444,46.9466;7.4744,46.9657");
    expect(osrm.requests).toHaveLength(0);
  });

  it("estimates walking from the driving route's distance when there is no foot server", async ({ open }) => {
    const { harness, osrm, foot } = await open({ places: HOME_AND_WORK, env: { MARVIN_OSRM_FOOT_URL: "off" } });
    expect(await harness.ok("estimate_travel_time", { origin: "home", destination: "work", mode: "walking" })).toBe(
      "Walking from home (46.9466, 7.4444) to work (46.9657, 7.4744): about 7 min, 610 m (estimated from the " +
        "driving route's distance at 5 km/h, as MARVIN_OSRM_FOOT_URL is off).",
    );
    expect(path(osrm.requests[0]!)).toBe("/route/v1/driving/7.4444,46.9466;7.4744,46.9657");
    expect(foot.requests).toHaveLength(0);
  });

  it("estimates cycling, saying why, when the bike server is down", async ({ open }) => {
    const { harness, bike } = await open({ bike: answerJson({ message: "maintenance" }, 503) });
    const args = { origin: "46.9466,7.4444", destination: "46.9657,7.4744", mode: "cycling" };
    expect(await harness.ok("estimate_travel_time", args)).toBe(
      "Cycling from 46.9466, 7.4444 to 46.9657, 7.4744: about 2 min, 610 m (estimated from the driving route's " +
        "distance at 15 km/h, as the cycling route failed: OSRM bike routing answered HTTP 503 " +
        '(Service Unavailable): "maintenance" — try again in a minute).',
    );
    expect(bike.requests.length).toBeGreaterThan(0);
  });

  it("explains OSRM's NoRoute", async ({ open }) => {
    const { harness } = await open({ osrm: answerJson(OSRM_ERRORS.noRoute, 400), places: HOME_AND_WORK });
    expect(await harness.failure("estimate_travel_time", { origin: "home", destination: "work" })).toBe(
      "Error in estimate_travel_time: OSRM found no driving route between these places (NoRoute): nothing open to " +
        "driving connects them, e.g. they are on different islands or continents. " +
        "Check the places, or try another mode.",
    );
  });

  it("names the point OSRM could not place on a road (NoSegment)", async ({ open }) => {
    const { harness } = await open({ osrm: answerJson(OSRM_ERRORS.noSegment, 400), places: HOME_AND_WORK });
    expect(await harness.failure("estimate_travel_time", { origin: "home", destination: "45.5, -30.1" })).toBe(
      "Error in estimate_travel_time: OSRM could not place the destination on a road usable for driving (NoSegment) " +
        '("Could not find a matching segment for coordinate 1"): it may be in water or far from any street. ' +
        "Give coordinates or an address nearer a road.",
    );
  });

  it("says what to do about too many points (TooBig) and refused values (InvalidValue)", async ({ open }) => {
    const { harness } = await open({ osrm: answerJson(OSRM_ERRORS.tooBig, 400), places: HOME_AND_WORK });
    expect(await harness.failure("get_directions", { origin: "home", destination: "work" })).toMatch(
      /more points than this OSRM server accepts \(TooBig\) \("Number of entries 120 .*"\)\. Use fewer waypoints\.$/,
    );
    const other = await open({ osrm: answerJson(OSRM_ERRORS.invalidValue, 400), places: HOME_AND_WORK });
    expect(await other.harness.failure("estimate_travel_time", { origin: "home", destination: "work" })).toMatch(
      /OSRM refused the coordinates \(InvalidValue\) \("Invalid coordinate value\."\)\. Latitude goes from -90/,
    );
  });

  it("treats an Ok answer without routes as no route", async ({ open }) => {
    const { harness } = await open({ osrm: answerJson({ code: "Ok", routes: [], waypoints: [] }) });
    const args = { origin: "46.9466,7.4444", destination: "46.9657,7.4744", mode: "walking" };
    expect(await harness.failure("estimate_travel_time", args)).toMatch(/OSRM found no walking route .*\(NoRoute\)/);
  });

  it("hands on a server error without an OSRM code", async ({ open }) => {
    const { harness } = await open({ osrm: answerJson({ message: "upstream unavailable" }, 502) });
    expect(await harness.failure("estimate_travel_time", { origin: "1,2", destination: "3,4" })).toMatch(
      /^Error in estimate_travel_time: OSRM answered HTTP 502 \(Bad Gateway\): "upstream unavailable" — try again/,
    );
  });

  it("refuses an answer that is not a route", async ({ open }) => {
    const { harness } = await open({ osrm: answerJson({ code: "Ok", routes: [{ legs: "none" }] }) });
    expect(await harness.failure("estimate_travel_time", { origin: "1,2", destination: "3,4" })).toMatch(
      /^Error in estimate_travel_time: OSRM sent an answer Marvin does not understand: .*MARVIN_OSRM_URL=/,
    );
  });

  it("asks for the start when it is missing", async ({ open }) => {
    const { harness, osrm } = await open();
    expect(await harness.failure("estimate_travel_time", { destination: "3,4", origin_lat: 1 })).toBe(
      'Error in estimate_travel_time: Say where from: give origin (a saved place label such as "home", a place ' +
        'name or address, or "lat,lng"), or origin_lat and origin_lng.',
    );
    expect(osrm.requests).toHaveLength(0);
  });

  it("gives up on an OSRM server that does not answer", async ({ open }) => {
    const { harness } = await open({ osrm: () => undefined, httpTimeout: "1" });
    expect(await harness.failure("estimate_travel_time", { origin: "1,2", destination: "3,4" })).toBe(
      "Error in estimate_travel_time: OSRM took longer than 1 s to answer — try again in a minute, or ask for less.",
    );
  });
});

describe("get_directions", () => {
  it("lists each maneuver with its street and distance", async ({ open }) => {
    const { harness, osrm } = await open({ places: HOME_AND_WORK });
    expect(await harness.ok("get_directions", { origin: "home", destination: "work" })).toBe(
      [
        "Driving from home (46.9466, 7.4444) to work (46.9657, 7.4744): 2 min, 610 m.",
        "1. Head east on Bundesgasse — 220 m",
        "2. Turn left onto Kochergasse — 310 m",
        "3. At the roundabout take exit 2 — 90 m",
        "4. Arrive; the destination is on the right",
      ].join("\n"),
    );
    expect(query(osrm.requests[0]!)).toMatchObject({ steps: "true", overview: "false" });
  });

  it("turns waypoints into extra coordinates and shows one heading per leg", async ({ open }) => {
    const { harness, osrm } = await open({ osrm: routeAnswer("two"), places: HOME_AND_WORK });
    const args = { origin: "home", destination: "work", waypoints: "46.948, 7.4477; " };
    const text = await harness.ok("get_directions", args);
    expect(path(osrm.requests[0]!)).toBe("/route/v1/driving/7.4444,46.9466;7.4477,46.948;7.4744,46.9657");
    expect(text.split("\n")).toEqual([
      "Driving from home (46.9466, 7.4444) to work (46.9657, 7.4744) via 46.948, 7.4477: 8 min, 4.5 km.",
      "Leg 1: home (46.9466, 7.4444) to 46.948, 7.4477 (2 min, 610 m)",
      "1. Head east on Bundesgasse — 220 m",
      "2. Turn left onto Kochergasse — 310 m",
      "3. At the roundabout take exit 2 — 90 m",
      "4. Arrive; the destination is on the right",
      "Leg 2: 46.948, 7.4477 to work (46.9657, 7.4744) (7 min, 3.9 km)",
      "5. Head southwest on Kramgasse — 140 m",
      "6. Continue onto Papiermühlestrasse — 2.9 km",
      "7. Take the ramp on the slight right onto A6 — 840 m",
      "8. Arrive",
    ]);
  });

  it("labels estimated walking directions as the driving route's steps", async ({ open }) => {
    const { harness } = await open({ places: HOME_AND_WORK, env: { MARVIN_OSRM_FOOT_URL: "off" } });
    const text = await harness.ok("get_directions", { origin: "home", destination: "work", mode: "walking" });
    expect(text.split("\n").slice(0, 2)).toEqual([
      "Walking from home (46.9466, 7.4444) to work (46.9657, 7.4744): about 7 min, 610 m (estimated from the " +
        "driving route's distance at 5 km/h, as MARVIN_OSRM_FOOT_URL is off; the steps follow the driving route).",
      "1. Head east on Bundesgasse — 220 m",
    ]);
  });

  it("says so when the route has no steps", async ({ open }) => {
    const { harness } = await open({ osrm: (_request, response) => sendJson(response, osrmRoute({ steps: false })) });
    expect(await harness.ok("get_directions", { origin: "1,2", destination: "3,4" })).toBe(
      "Driving from 1, 2 to 3, 4: 2 min, 610 m.\nOSRM gave no turn-by-turn steps for this route.",
    );
  });
});

describe("estimate_traffic_adjusted_time", () => {
  it("applies the weather now and the rush hour at the start, showing each factor", async ({ open }) => {
    const { harness, openMeteo } = await open({ places: HOME_AND_WORK });
    expect(await harness.ok("estimate_traffic_adjusted_time", { origin: "home", destination: "work" })).toBe(
      [
        "Driving from home (46.9466, 7.4444) to work (46.9657, 7.4744), leaving now: about 3 min " +
          "(free-flow 2 min, 610 m).",
        "Factors applied (rules of thumb, not live traffic data):",
        "1. Weather at the start now: moderate rain → ×1.15 (rain)",
        "2. Wind: 15 km/h → ×1.00 (light)",
        "3. Time of day: Tue 08:15, local time at the start (Europe/Zurich) → ×1.35 (morning rush hour)",
        "Combined: ×1.55.",
      ].join("\n"),
    );
    expect(query(openMeteo.requests[0]!)).toEqual({
      latitude: "46.9466",
      longitude: "7.4444",
      current: "weather_code,precipitation,wind_speed_10m",
      timezone: "auto",
    });
  });

  it("lets snow and a storm slow cyclists but not the Sunday night traffic", async ({ open }) => {
    const night = openMeteoCurrent({ time: "2026-11-29T23:30", weatherCode: 75, precipitation: 3.1, wind: 64.2 });
    const { harness } = await open({ openMeteo: answerJson(night), preferences: { units: "imperial" } });
    const text = await harness.ok("estimate_traffic_adjusted_time", {
      origin: "1,2",
      destination: "3,4",
      mode: "cycling",
    });
    expect(text.split("\n").slice(2)).toEqual([
      "1. Weather at the start now: heavy snowfall → ×1.80 (heavy snow)",
      "2. Wind: 40 mph → ×1.40 (storm-force wind)",
      "3. Time of day: Sun 23:30, local time at the start (Europe/Zurich) → ×1.00 (weekend night, empty roads; " +
        "traffic does not slow cycling)",
      "Combined: ×2.52.",
    ]);
    expect(text).toMatch(/leaving now: about 4 min \(free-flow 2 min, 0\.4 mi\)\./);
  });

  it("still answers without the weather when Open-Meteo fails, saying so", async ({ open }) => {
    const { harness } = await open({ openMeteo: answerJson({ error: true, reason: "Internal error" }, 500) });
    const text = await harness.ok("estimate_traffic_adjusted_time", { origin: "1,2", destination: "3,4" });
    expect(text.split("\n")[2]).toMatch(
      /^1\. Weather: unknown, no factor applied \(Open-Meteo answered HTTP 500 \(Internal Server Error\): "Internal error"/,
    );
    expect(text.split("\n")[3]).toBe("2. Wind: unknown, no factor applied");
    expect(text.split("\n")[4]).toMatch(/^3\. Time of day: \w{3} \d\d:\d\d, by this computer's clock → ×1\.\d\d \(/);
  });

  it("passes OSRM's explanation on before asking about the weather", async ({ open }) => {
    const { harness, openMeteo } = await open({ osrm: answerJson(OSRM_ERRORS.noRoute, 400) });
    expect(await harness.failure("estimate_traffic_adjusted_time", { origin: "1,2", destination: "3,4" })).toMatch(
      /\(NoRoute\)/,
    );
    expect(openMeteo.requests).toHaveLength(0);
  });
});
