import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "../support/fixtures.js";
import type { LlmServer, Script } from "../support/llm-server.js";
import { type LocalHttpServer, sendJson } from "../support/local-http-server.js";
import { osrmRoute } from "../support/payloads/travel.js";
import { runMarvin, serverEnv } from "../support/run-marvin.js";
import { openMeteoForecast } from "../support/service-payloads.js";

const searchParams = (server: LocalHttpServer, index = 0) =>
  new URL(server.requests[index]!.url, server.origin).searchParams;

type ToolCall = { name: string; arguments: Record<string, unknown> };

/** One non-interactive run of the built CLI in which the scripted model makes `calls`, one a turn, then answers. */
async function ask(
  { home, llm, env }: { home: string; llm: (script: Script[]) => Promise<LlmServer>; env: Record<string, string> },
  prompt: string,
  calls: ToolCall[],
  answer: string,
) {
  const server = await llm([...calls.map((call) => ({ toolCalls: [call] })), { text: answer }]);
  const run = await runMarvin(["--non-interactive", "--prompt", prompt], {
    env: serverEnv(server.url, home, env),
    cwd: home,
  });
  expect(run.code, run.stderr).toBe(0);
  const lastRequest = server.requests.at(-1)!;
  return { run, toolResults: lastRequest.body.messages.filter((message) => message.role === "tool") };
}

describe("places, weather and travel in the built CLI", () => {
  test("saves 'home' in one run and forecasts the weather there in the next", async ({ home, llm, httpServers }) => {
    const openMeteo = await httpServers.start((_request, response) => sendJson(response, openMeteoForecast()));
    const nominatim = await httpServers.start((_request, response) => sendJson(response, []));
    const env = { MARVIN_OPEN_METEO_URL: openMeteo.origin, MARVIN_NOMINATIM_URL: nominatim.origin };
    const save = { name: "save_place", arguments: { label: "home", lat: 46.9466, lng: 7.4444 } };
    await ask({ home, llm, env }, "I live at 46.9466, 7.4444; remember it as home.", [save], "Saved.");
    const saved = JSON.parse(
      await readFile(join(home, ".config/local-finder/profiles/main/saved_places.json"), "utf8"),
    );
    expect(saved).toMatchObject([{ label: "home", lat: 46.9466, lng: 7.4444 }]);

    const forecast = { name: "weather_forecast", arguments: { location: "home", days: 2 } };
    const { run, toolResults } = await ask({ home, llm, env }, "Weather at home?", [forecast], "Overcast at home.");
    expect(run.stdout).toBe("  🔧 weather_forecast\nOvercast at home.\n");
    expect(openMeteo.requests).toHaveLength(1);
    expect([searchParams(openMeteo).get("latitude"), searchParams(openMeteo).get("longitude")]).toEqual([
      "46.9466",
      "7.4444",
    ]);
    expect(nominatim.requests).toHaveLength(0);
    expect(toolResults.at(-1)!.content).toMatch(
      /^Weather for home \(46\.9466, 7\.4444\); local times in Europe\/Zurich/,
    );
  });

  test("routes between saved places, sending OSRM longitude first", async ({ home, llm, httpServers }) => {
    const osrm = await httpServers.start((_request, response) => sendJson(response, osrmRoute()));
    const nominatim = await httpServers.start((_request, response) => sendJson(response, []));
    const env = { MARVIN_OSRM_URL: osrm.origin, MARVIN_NOMINATIM_URL: nominatim.origin };
    const places = [
      { name: "save_place", arguments: { label: "home", lat: 46.9466, lng: 7.4444 } },
      { name: "save_place", arguments: { label: "work", lat: 46.9657, lng: 7.4744 } },
    ];
    await ask({ home, llm, env }, "Home is 46.9466, 7.4444 and work is 46.9657, 7.4744.", places, "Saved both.");

    const travel = { name: "estimate_travel_time", arguments: { origin: "home", destination: "work" } };
    const { run, toolResults } = await ask({ home, llm, env }, "How long to drive to work?", [travel], "2 minutes.");
    expect(run.stdout).toBe("  🔧 estimate_travel_time\n2 minutes.\n");
    expect(new URL(osrm.requests[0]!.url, osrm.origin).pathname).toBe(
      "/route/v1/driving/7.4444,46.9466;7.4744,46.9657",
    );
    expect(nominatim.requests).toHaveLength(0);
    expect(toolResults.at(-1)!.content).toBe(
      "Driving from home (46.9466, 7.4444) to work (46.9657, 7.4744): 2 min, 610 m (free-flow, without traffic).",
    );
  });

  test("converts units offline with the lazily loaded math.js chunk", async ({ home, llm }) => {
    const convert = { name: "convert_units", arguments: { value: 100, from_unit: "°C", to_unit: "F" } };
    const { run, toolResults } = await ask({ home, llm, env: {} }, "100 °C in Fahrenheit?", [convert], "212 °F.");
    expect(run.stdout).toBe("  🔧 convert_units\n212 °F.\n");
    expect(toolResults.at(-1)!.content).toBe("100 °C = 212 F (temperature).");
  });
});
