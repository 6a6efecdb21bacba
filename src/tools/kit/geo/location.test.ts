import { afterEach, describe, expect, it } from "vitest";
import { LocalHttpServers, sendJson } from "../../../../tests/support/local-http-server.js";
import { NOMINATIM_BERN } from "../../../../tests/support/service-payloads.js";
import { TempDirs } from "../../../../tests/support/test-session.js";
import { createToolContext } from "../../../session/standalone-tool-context.js";
import { saveSavedPlaces } from "../../../state/saved-places.js";
import { resolveLocation } from "./location.js";

const servers = new LocalHttpServers();
const dirs = new TempDirs();
afterEach(async () => {
  await servers.closeAll();
  await dirs.cleanup();
});

async function contextWithPlaces(places: Array<{ label: string; address?: string; lat?: number; lng?: number }>) {
  const nominatim = await servers.start((_request, response) => sendJson(response, NOMINATIM_BERN));
  const context = createToolContext({
    home: await dirs.make("marvin-geo-"),
    env: { MARVIN_NOMINATIM_URL: nominatim.origin },
  });
  const blank = { name: "", address: "", phone: "", website: "", lat: 0, lng: 0, notes: "" };
  await context.profiles.ensure(context.profileName);
  const path = context.profiles.paths(context.profileName).savedPlaces;
  await saveSavedPlaces(
    path,
    places.map((place) => ({ ...blank, ...place })),
  );
  return { context, nominatim };
}

describe("resolveLocation", () => {
  it("reads 'lat,lng' text without asking anyone", async () => {
    const { context, nominatim } = await contextWithPlaces([]);
    expect(await resolveLocation(context, " -33.8688 , 151.2093 ")).toEqual({
      latitude: -33.8688,
      longitude: 151.2093,
      label: "-33.8688, 151.2093",
    });
    expect(nominatim.requests).toHaveLength(0);
  });

  it("refuses coordinates off the globe", async () => {
    const { context } = await contextWithPlaces([]);
    await expect(resolveLocation(context, "95, 10")).rejects.toThrow(
      "'95, 10' is not a position on Earth: latitude goes from -90 to 90, longitude -180 to 180.",
    );
  });

  it("looks up the address of a saved place that has no coordinates", async () => {
    const { context, nominatim } = await contextWithPlaces([{ label: "office", address: "Bundesplatz 3, Bern" }]);
    expect(await resolveLocation(context, "office")).toEqual({
      latitude: 46.9484742,
      longitude: 7.4521749,
      label: "office",
    });
    expect(new URL(nominatim.requests[0]!.url, nominatim.origin).searchParams.get("q")).toBe("Bundesplatz 3, Bern");
  });

  it("says what to add to a saved place with neither coordinates nor address", async () => {
    const { context } = await contextWithPlaces([{ label: "gym" }]);
    await expect(resolveLocation(context, "gym")).rejects.toThrow(
      "The saved place 'gym' has neither coordinates nor an address. Add them with save_place.",
    );
  });
});
