import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "../support/fixtures.js";
import { sendJson } from "../support/local-http-server.js";
import { IP_API_BERN, OVERPASS_CAFES_BERN } from "../support/payloads/places.js";
import { runMarvin, serverEnv } from "../support/run-marvin.js";

function saveHome(home: string): void {
  const profile = join(home, ".config", "local-finder", "profiles", "main");
  mkdirSync(profile, { recursive: true });
  const saved = { label: "home", name: "", address: "", phone: "", website: "", lat: 46.9466, lng: 7.4444, notes: "" };
  writeFileSync(join(profile, "saved_places.json"), JSON.stringify([saved]));
}

describe("place tools in the built CLI", () => {
  test("finds cafés near the saved place 'home' on OpenStreetMap", async ({ home, llm, httpServers }) => {
    saveHome(home);
    const overpass = await httpServers.start((_request, response) => sendJson(response, OVERPASS_CAFES_BERN));
    const call = { location: "home", included_types: ["cafe"], radius: 500 };
    const server = await llm([
      { toolCalls: [{ name: "places_nearby_search", arguments: call }] },
      { text: "Café Fédéral is 129 m from home." },
    ]);
    const env = serverEnv(server.url, home, { MARVIN_OVERPASS_URL: overpass.origin });
    const run = await runMarvin(["--non-interactive", "--prompt", "Cafés near home?"], { env, cwd: home });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("  🔧 places_nearby_search\nCafé Fédéral is 129 m from home.\n");
    const query = new URLSearchParams(overpass.requests[0]!.body).get("data");
    expect(query).toContain('nwr["amenity"="cafe"](around:500,46.9466,7.4444);');
    const toolResult = server.requests[1]!.body.messages.at(-1)!;
    expect(toolResult.content).toMatch(/^cafe within 500 m of home \(46\.9466, 7\.4444\), from OpenStreetMap/);
  });

  test("says where the machine is from its IP address when GeoClue is missing", async ({ home, llm, httpServers }) => {
    const ipApi = await httpServers.start((_request, response) => sendJson(response, IP_API_BERN));
    const server = await llm([
      { toolCalls: [{ name: "get_my_location", arguments: {} }] },
      { text: "You seem to be in Bern." },
    ]);
    const env = serverEnv(server.url, home, {
      MARVIN_IPGEO_URL: ipApi.origin,
      MARVIN_WHERE_AM_I: join(home, "no-geoclue", "where-am-i"),
    });
    const run = await runMarvin(["--non-interactive", "--prompt", "Where am I?"], { env, cwd: home });
    expect(run.code, run.stderr).toBe(0);
    const toolResult = server.requests[1]!.body.messages.at(-1)!;
    expect(toolResult.content).toMatch(/^Approximate location from IP geolocation \(ip-api\.com\), city-level only/);
    expect(toolResult.content).toContain("GeoClue is not installed (Debian package geoclue-2-demo)");
  });
});
