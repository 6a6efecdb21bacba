import { afterEach, describe, expect, it } from "vitest";
import { type Handler, LocalHttpServers, sendJson } from "../../../../tests/support/local-http-server.js";
import { NOMINATIM_BERN } from "../../../../tests/support/service-payloads.js";
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

async function nominatimAnswering(handler: Handler) {
  const nominatim = await servers.start(handler);
  const home = await dirs.make("marvin-maps-");
  const harness = await harnesses.open({ home, env: { MARVIN_NOMINATIM_URL: nominatim.origin } });
  return { harness, nominatim };
}

describe("osm_search", () => {
  it("lists each match with its address, coordinates and kind", async () => {
    const { harness, nominatim } = await nominatimAnswering((_request, response) => sendJson(response, NOMINATIM_BERN));
    expect(await harness.ok("osm_search", { query: "Bern", limit: 2 })).toBe(
      [
        "OpenStreetMap places for 'Bern':",
        "1. Bern [boundary/administrative]",
        "   Bern, Verwaltungskreis Bern-Mittelland, Verwaltungsregion Bern-Mittelland, Bern/Berne, " +
          "Schweiz/Suisse/Svizzera/Svizra",
        "   46.9484742, 7.4521749",
        "2. Bern [railway/station]",
        "   Bern, Bahnhofplatz, Bern, Verwaltungskreis Bern-Mittelland, Schweiz/Suisse/Svizzera/Svizra",
        "   46.9479222, 7.4446085",
      ].join("\n"),
    );
    expect(nominatim.requests[0]!.url).toBe("/search?q=Bern&format=jsonv2&limit=2");
    expect(nominatim.requests[0]!.headers["user-agent"]).toMatch(/^Marvin\//);
  });

  it("says so when nothing matches", async () => {
    const { harness } = await nominatimAnswering((_request, response) => sendJson(response, []));
    expect(await harness.ok("osm_search", { query: "Xyzzy Plugh" })).toBe(
      "OpenStreetMap knows no place matching 'Xyzzy Plugh'. Try other or fewer words.",
    );
  });

  it("hands on Nominatim's server error", async () => {
    const { harness } = await nominatimAnswering((_request, response) => sendJson(response, {}, 502));
    expect(await harness.failure("osm_search", { query: "Bern" })).toMatch(
      /^Error in osm_search: Nominatim \(OpenStreetMap\) answered HTTP 502 \(Bad Gateway\)/,
    );
  });

  it("refuses coordinates that are not numbers", async () => {
    const broken = [{ ...NOMINATIM_BERN[0], lat: "north-ish" }];
    const { harness } = await nominatimAnswering((_request, response) => sendJson(response, broken));
    expect(await harness.failure("osm_search", { query: "Bern" })).toMatch(
      /^Error in osm_search: Nominatim \(OpenStreetMap\) sent an answer Marvin does not understand: /,
    );
  });

  it("keeps parallel searches a second apart, as Nominatim's usage policy asks", async () => {
    const arrivals: number[] = [];
    const { harness } = await nominatimAnswering((_request, response) => {
      arrivals.push(Date.now());
      sendJson(response, []);
    });
    await Promise.all([harness.ok("osm_search", { query: "Bern" }), harness.ok("osm_search", { query: "Thun" })]);
    expect(arrivals).toHaveLength(2);
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(990);
  });
});
