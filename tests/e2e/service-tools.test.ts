import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "../support/fixtures.js";
import { sendJson } from "../support/local-http-server.js";
import { runMarvin, serverEnv } from "../support/run-marvin.js";
import { openMeteoForecast } from "../support/service-payloads.js";

describe("service tools in the built CLI", () => {
  test("forecasts the weather at the saved place 'home'", async ({ home, llm, httpServers }) => {
    const profile = join(home, ".config", "local-finder", "profiles", "main");
    mkdirSync(profile, { recursive: true });
    const saved = {
      label: "home",
      name: "",
      address: "",
      phone: "",
      website: "",
      lat: 46.9466,
      lng: 7.4444,
      notes: "",
    };
    writeFileSync(join(profile, "saved_places.json"), JSON.stringify([saved]));
    const openMeteo = await httpServers.start((_request, response) => sendJson(response, openMeteoForecast()));
    const server = await llm([
      { toolCalls: [{ name: "weather_forecast", arguments: { location: "home", days: 2 } }] },
      { text: "Overcast at home, rain tomorrow." },
    ]);
    const env = serverEnv(server.url, home, { MARVIN_OPEN_METEO_URL: openMeteo.origin });
    const run = await runMarvin(["--non-interactive", "--prompt", "Weather at home?"], { env, cwd: home });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("  🔧 weather_forecast\nOvercast at home, rain tomorrow.\n");
    const asked = new URL(openMeteo.requests[0]!.url, openMeteo.origin).searchParams;
    expect([asked.get("latitude"), asked.get("longitude")]).toEqual(["46.9466", "7.4444"]);
    const toolResult = server.requests[1]!.body.messages.at(-1)!;
    expect(toolResult).toMatchObject({ role: "tool" });
    expect(toolResult.content).toMatch(/^Weather for home \(46\.9466, 7\.4444\); local times in Europe\/Zurich/);
  });
});
