import { afterEach, describe, expect, it } from "vitest";
import { LocalHttpServers, sendJson } from "../../../../tests/support/local-http-server.js";
import { NOMINATIM_BERN, openMeteoForecast } from "../../../../tests/support/service-payloads.js";
import { TempDirs } from "../../../../tests/support/test-session.js";
import { ToolHarnessPool } from "../../../../tests/support/tool-harness.js";

const servers = new LocalHttpServers();
const harnesses = new ToolHarnessPool();
const dirs = new TempDirs();
afterEach(async () => {
  await harnesses.closeAll();
  await servers.closeAll();
  await dirs.cleanup();
});

/** A harness whose Open-Meteo answers `forecast` and whose Nominatim answers `places`. */
async function setUp(forecast: unknown = openMeteoForecast(), places: unknown = NOMINATIM_BERN, status = 200) {
  const openMeteo = await servers.start((_request, response) => sendJson(response, forecast, status));
  const nominatim = await servers.start((_request, response) => sendJson(response, places));
  const env = { MARVIN_OPEN_METEO_URL: openMeteo.origin, MARVIN_NOMINATIM_URL: nominatim.origin };
  const harness = await harnesses.open({ home: await dirs.make("marvin-weather-"), env });
  return { harness, openMeteo, nominatim };
}

const query = (url: string) => Object.fromEntries(new URL(url, "http://fixture").searchParams);

describe("weather_forecast", () => {
  it("reads current conditions and the days asked for, in the place's time zone", async () => {
    const { harness, openMeteo } = await setUp();
    const text = await harness.ok("weather_forecast", { latitude: 46.94, longitude: 7.44, days: 2 });
    expect(text).toBe(
      [
        "Weather for 46.94, 7.44 (46.94, 7.44); local times in Europe/Zurich (GMT+1).",
        "Now (2026-11-24 11:15): overcast, 4.8 °C (feels like 1.6 °C), precipitation 0 mm, wind 9.4 km/h",
        "Tue 2026-11-24: overcast, 0.4 to 6.2 °C (feels like -2.9 to 3.1 °C), precipitation 0 mm (5% chance), " +
          "wind up to 11.2 km/h, sunrise 07:42, sunset 16:47",
        "Wed 2026-11-25: moderate rain, 2.1 to 7.9 °C (feels like -0.8 to 4.4 °C), precipitation 6.3 mm, " +
          "wind up to 23.8 km/h, sunrise 07:43, sunset 16:46",
      ].join("\n"),
    );
    expect(openMeteo.requests[0]!.url).toMatch(/^\/v1\/forecast\?/);
    expect(query(openMeteo.requests[0]!.url)).toEqual({
      latitude: "46.94",
      longitude: "7.44",
      current: "temperature_2m,apparent_temperature,precipitation,weather_code,wind_speed_10m",
      daily:
        "weather_code,temperature_2m_max,temperature_2m_min,apparent_temperature_max,apparent_temperature_min," +
        "precipitation_sum,precipitation_probability_max,wind_speed_10m_max,sunrise,sunset",
      timezone: "auto",
      forecast_days: "2",
    });
  });

  it("takes a saved place label such as 'home' and asks for the saved coordinates", async () => {
    const { harness, openMeteo, nominatim } = await setUp();
    await harness.ok("save_place", { label: "home", address: "Bundesplatz 3, Bern", lat: 46.9466, lng: 7.4444 });
    const text = await harness.ok("weather_forecast", { location: "Home" });
    expect(text).toMatch(/^Weather for home \(46\.9466, 7\.4444\);/);
    expect(query(openMeteo.requests[0]!.url)).toMatchObject({ latitude: "46.9466", longitude: "7.4444" });
    expect(nominatim.requests).toHaveLength(0);
  });

  it("looks a place name up on Nominatim, whose coordinates come as strings", async () => {
    const { harness, openMeteo, nominatim } = await setUp();
    const text = await harness.ok("weather_forecast", { location: "Bern" });
    expect(query(nominatim.requests[0]!.url)).toEqual({ q: "Bern", format: "jsonv2", limit: "1" });
    expect(query(openMeteo.requests[0]!.url)).toMatchObject({ latitude: "46.9484742", longitude: "7.4521749" });
    expect(text).toMatch(/^Weather for Bern, Verwaltungskreis Bern-Mittelland, .* \(46\.9484742, 7\.4521749\);/);
  });

  it("says so when no place has the name", async () => {
    const { harness, openMeteo } = await setUp(openMeteoForecast(), []);
    expect(await harness.failure("weather_forecast", { location: "Xyzzy Plugh" })).toBe(
      "Error in weather_forecast: No place called 'Xyzzy Plugh' was found. " +
        'Try a fuller address, a city name, or "lat,lng".',
    );
    expect(openMeteo.requests).toHaveLength(0);
  });

  it("asks for °F, mph and inches when the profile prefers imperial units", async () => {
    const { harness, openMeteo } = await setUp(openMeteoForecast("imperial"));
    await harness.ok("update_preferences", { key: "units", value: "imperial" });
    const text = await harness.ok("weather_forecast", { location: "46.94, 7.44", days: 2 });
    expect(query(openMeteo.requests[0]!.url)).toMatchObject({
      temperature_unit: "fahrenheit",
      wind_speed_unit: "mph",
      precipitation_unit: "inch",
    });
    expect(text).toContain("Now (2026-11-24 11:15): overcast, 40.6 °F (feels like 34.9 °F), precipitation 0 inch");
  });

  it("hands on Open-Meteo's server error", async () => {
    const { harness } = await setUp({ error: true, reason: "Internal error" }, [], 503);
    expect(await harness.failure("weather_forecast", { latitude: 1, longitude: 2 })).toMatch(
      /^Error in weather_forecast: Open-Meteo answered HTTP 503 \(Service Unavailable\)/,
    );
  });

  it("refuses an answer that is not a forecast, naming the service", async () => {
    const { harness } = await setUp({ latitude: 46.94, longitude: 7.44, hourly: {} });
    expect(await harness.failure("weather_forecast", { latitude: 1, longitude: 2 })).toMatch(
      /^Error in weather_forecast: Open-Meteo sent an answer Marvin does not understand: .*MARVIN_OPEN_METEO_URL=/,
    );
  });

  it("asks where when given neither a location nor coordinates", async () => {
    const { harness } = await setUp();
    expect(await harness.failure("weather_forecast", { latitude: 46.9 })).toBe(
      'Error in weather_forecast: Say where: give location (a saved place label such as "home", a place name or ' +
        'address, or "lat,lng"), or latitude and longitude.',
    );
  });
});
