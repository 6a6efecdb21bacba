import { test as base, describe, expect } from "../../../../tests/support/fixtures.js";
import {
  answerJson,
  type Handler,
  type LocalHttpServer,
  sendJson,
} from "../../../../tests/support/local-http-server.js";
import {
  GOOGLE_API_KEY_INVALID,
  GOOGLE_NEARBY_PHARMACIES,
  GOOGLE_NOTHING_FOUND,
  GOOGLE_SERVICE_DISABLED,
  GOOGLE_TEXT_SEARCH_CAFES,
  GOOGLE_UNSUPPORTED_TYPE,
  IP_API_BERN,
  IP_API_PRIVATE_RANGE,
  NOMINATIM_PHARMACY_BERN,
  OVERPASS_CAFES_BERN,
  OVERPASS_EMPTY,
  OVERPASS_TIMED_OUT,
} from "../../../../tests/support/payloads/places.js";
import type { ToolHarness } from "../../../../tests/support/tool-harness.js";

const KEY = "AIzaSyA-test-key-0123456789abcdefghijk";
const NO_GEOCLUE = "/nonexistent/geoclue-2.0/demos/where-am-i";

interface Services {
  harness: ToolHarness;
  google: LocalHttpServer;
  overpass: LocalHttpServer;
  nominatim: LocalHttpServer;
  ipApi: LocalHttpServer;
}

type ServiceHandlers = { google?: Handler; overpass?: Handler; nominatim?: Handler; ipApi?: Handler; key?: string };

/**
 * `setUp(handlers)`: a harness whose services answer with the given handlers (those not given are never asked,
 * and fail the test when they are), with "home" saved at the Bundesplatz, Bern.
 */
const test = base.extend<{ setUp: (handlers?: ServiceHandlers) => Promise<Services> }>({
  setUp: async ({ home, harnesses, httpServers }, use) =>
    use(async (handlers = {}) => {
      const unexpected: Handler = (request, response) => sendJson(response, { unexpected: request.url }, 418);
      const google = await httpServers.start(handlers.google ?? unexpected);
      const overpass = await httpServers.start(handlers.overpass ?? unexpected);
      const nominatim = await httpServers.start(handlers.nominatim ?? unexpected);
      const ipApi = await httpServers.start(handlers.ipApi ?? unexpected);
      const env = {
        MARVIN_GOOGLE_PLACES_URL: google.origin,
        MARVIN_OVERPASS_URL: overpass.origin,
        MARVIN_NOMINATIM_URL: nominatim.origin,
        MARVIN_IPGEO_URL: ipApi.origin,
        MARVIN_WHERE_AM_I: NO_GEOCLUE,
        ...(handlers.key ? { GOOGLE_PLACES_API_KEY: handlers.key } : {}),
      };
      const harness = await harnesses.open({ home, env });
      await harness.ok("save_place", { label: "home", address: "Bundesplatz 3, Bern", lat: 46.9466, lng: 7.4444 });
      return { harness, google, overpass, nominatim, ipApi };
    }),
});

const query = (url: string) => Object.fromEntries(new URL(url, "http://fixture").searchParams);
const overpassData = (body: string) => new URLSearchParams(body).get("data");

describe("get_my_location", () => {
  test("falls back to IP geolocation when GeoClue is missing, and says how coarse that is", async ({ setUp }) => {
    const { harness, ipApi } = await setUp({ ipApi: answerJson(IP_API_BERN) });
    expect(await harness.ok("get_my_location", {})).toBe(
      "Approximate location from IP geolocation (ip-api.com), city-level only (it can be tens of kilometres off, " +
        "or name the network provider's city): Bern, Switzerland (46.9481, 7.4474); time zone " +
        "Europe/Zurich; network Swisscom (Schweiz) AG.\n" +
        `Not from the system's location service: GeoClue is not installed (Debian package geoclue-2-demo). For an ` +
        'exact place, ask the user or use a saved place such as "home" (list_places).',
    );
    expect(ipApi.requests[0]!.url).toBe(
      "/json?fields=status%2Cmessage%2Ccountry%2CregionName%2Ccity%2Clat%2Clon%2Ctimezone%2Cisp",
    );
  });

  test("falls back when GeoClue's client runs but gives no position", async ({ httpServers, harnesses, home }) => {
    const ipApi = await httpServers.start(answerJson(IP_API_BERN));
    const env = { MARVIN_IPGEO_URL: ipApi.origin, MARVIN_WHERE_AM_I: "/bin/false" };
    const harness = await harnesses.open({ home, env });
    expect(await harness.ok("get_my_location", {})).toMatch(
      /\nNot from the system's location service: GeoClue gave no position\. For an exact place/,
    );
  });

  test("says what to do when ip-api.com cannot place the address", async ({ setUp }) => {
    const { harness } = await setUp({ ipApi: answerJson(IP_API_PRIVATE_RANGE) });
    expect(await harness.failure("get_my_location", {})).toBe(
      "Error in get_my_location: ip-api.com could not place this machine's address (private range). Ask the user " +
        'where they are, or use a saved place such as "home" (list_places).',
    );
  });

  test("passes on ip-api.com's rate limit", async ({ setUp }) => {
    const { harness } = await setUp({ ipApi: answerJson({}, 429) });
    expect(await harness.failure("get_my_location", {})).toBe(
      "Error in get_my_location: ip-api.com is limiting how often Marvin may ask (HTTP 429) — try again in a minute.",
    );
  });

  test("refuses an answer without coordinates", async ({ setUp }) => {
    const { harness } = await setUp({ ipApi: answerJson({ status: "success", country: "Switzerland" }) });
    expect(await harness.failure("get_my_location", {})).toMatch(
      /^Error in get_my_location: ip-api\.com sent an answer Marvin does not understand: /,
    );
  });
});

describe("places_text_search with Google Places", () => {
  test("asks Places API (New) near a saved place, with the key and field mask in headers", async ({ setUp }) => {
    const { harness, google } = await setUp({ key: KEY, google: answerJson(GOOGLE_TEXT_SEARCH_CAFES) });
    const text = await harness.ok("places_text_search", {
      text_query: "Kaffee",
      location: "home",
      radius: 800,
      max_results: 2,
      open_now: true,
    });
    expect(text).toBe(
      [
        "Places matching 'Kaffee' within 800 m of home (46.9466, 7.4444) (open now), from Google Places:",
        "1. Café Fédéral — Café · 4.3★ (1587 reviews) · open now · 129 m",
        "   Bärenplatz 31, 3011 Bern, Schweiz · 46.9477553, 7.4443017 · 031 311 11 24 · https://www.cafefederal.ch/",
        "2. Adrianos Bar & Café — Coffee Shop · 4.6★ (212 reviews) · closed temporarily · 466 m",
        "   Kramgasse 74, 3011 Bern, Schweiz · 46.9478942, 7.4502381",
      ].join("\n"),
    );
    const request = google.requests[0]!;
    expect([request.method, request.url]).toEqual(["POST", "/v1/places:searchText"]);
    expect(request.headers["x-goog-api-key"]).toBe(KEY);
    expect(request.headers["x-goog-fieldmask"]).toBe(
      "places.id,places.displayName,places.formattedAddress,places.location,places.primaryTypeDisplayName," +
        "places.rating,places.userRatingCount,places.currentOpeningHours.openNow,places.businessStatus," +
        "places.nationalPhoneNumber,places.websiteUri",
    );
    expect(JSON.parse(request.body)).toEqual({
      textQuery: "Kaffee",
      pageSize: 2,
      openNow: true,
      locationBias: { circle: { center: { latitude: 46.9466, longitude: 7.4444 }, radius: 800 } },
    });
  });

  test("searches everywhere when given no place (latitude and longitude 0 as the original tool had it)", async ({
    setUp,
  }) => {
    const { harness, google } = await setUp({ key: KEY, google: answerJson(GOOGLE_NOTHING_FOUND) });
    expect(await harness.ok("places_text_search", { text_query: "Xyzzy Café", latitude: 0, longitude: 0 })).toBe(
      "Google Places found no places matching 'Xyzzy Café'. Try other words or a wider radius.",
    );
    expect(JSON.parse(google.requests[0]!.body)).toEqual({ textQuery: "Xyzzy Café", pageSize: 5 });
  });

  test("falls back to OpenStreetMap when Google refuses the key, and says why", async ({ setUp }) => {
    const { harness } = await setUp({
      key: "not-a-key",
      google: answerJson(GOOGLE_API_KEY_INVALID, 400),
      nominatim: answerJson(NOMINATIM_PHARMACY_BERN),
    });
    const text = await harness.ok("places_text_search", { text_query: "Apotheke", location: "46.9466,7.4444" });
    expect(text).toBe(
      [
        'Google Places refused the request (HTTP 400 INVALID_ARGUMENT, API_KEY_INVALID): "API key not valid. Please ' +
          'pass a valid API key.". Run setup_google_auth to check the key step by step. Meanwhile, OpenStreetMap ' +
          "answered:",
        "Places matching 'Apotheke' within 5000 m of 46.9466, 7.4444 (46.9466, 7.4444), from OpenStreetMap " +
          "(Nominatim):",
        "1. Apotheke Dr. Noyer — amenity/pharmacy · 172 m",
        "   Apotheke Dr. Noyer, 44, Marktgasse, Altstadt, Bern, Verwaltungskreis Bern-Mittelland, Verwaltungsregion " +
          "Bern-Mittelland, Bern/Berne, 3011, Schweiz/Suisse/Svizzera/Svizra · 46.9481402, 7.4442189",
      ].join("\n"),
    );
  });

  test("refuses an answer whose places have no location", async ({ setUp }) => {
    const broken = { places: [{ id: "ChIJ", displayName: { text: "Café" } }] };
    const { harness } = await setUp({ key: KEY, google: answerJson(broken) });
    expect(await harness.failure("places_text_search", { text_query: "Café" })).toMatch(
      /^Error in places_text_search: Google Places sent an answer Marvin does not understand: places\.0\.location/,
    );
  });

  test("passes on a server error", async ({ setUp }) => {
    const unavailable = {
      error: { code: 503, message: "The service is currently unavailable.", status: "UNAVAILABLE" },
    };
    const { harness, google } = await setUp({ key: KEY, google: answerJson(unavailable, 503) });
    expect(await harness.failure("places_text_search", { text_query: "Café" })).toBe(
      'Error in places_text_search: Google Places answered HTTP 503 (Service Unavailable): "The service is ' +
        'currently unavailable." — try again in a minute.',
    );
    expect(google.requests).toHaveLength(1);
  });
});

describe("places_text_search with OpenStreetMap", () => {
  test("asks Nominatim within the box around the circle, and says it cannot tell what is open", async ({ setUp }) => {
    const { harness, nominatim } = await setUp({ nominatim: answerJson(NOMINATIM_PHARMACY_BERN) });
    const text = await harness.ok("places_text_search", {
      text_query: "Apotheke",
      location: "home",
      radius: 1000,
      open_now: true,
    });
    expect(text).toMatch(/^Places matching 'Apotheke' within 1000 m of home \(46\.9466, 7\.4444\), from OpenStreetMap/);
    expect(text).toMatch(/\nOpenStreetMap cannot tell what is open now: check the hours\.$/);
    expect(query(nominatim.requests[0]!.url)).toEqual({
      q: "Apotheke",
      format: "jsonv2",
      limit: "5",
      viewbox: "7.431241,46.955583,7.457559,46.937617",
      bounded: "1",
    });
  });

  test("says so when nothing matches", async ({ setUp }) => {
    const { harness } = await setUp({ nominatim: answerJson([]) });
    expect(await harness.ok("places_text_search", { text_query: "Xyzzy" })).toBe(
      "OpenStreetMap (Nominatim) found no places matching 'Xyzzy'. Try other words or a wider radius.",
    );
  });
});

describe("places_nearby_search with OpenStreetMap", () => {
  test("asks Overpass around a saved place for the type's tags and lists the nearest first", async ({ setUp }) => {
    const { harness, overpass } = await setUp({ overpass: answerJson(OVERPASS_CAFES_BERN) });
    const text = await harness.ok("places_nearby_search", {
      location: "Home",
      included_types: ["cafe"],
      radius: 500,
      max_results: 2,
    });
    expect(text).toBe(
      [
        "cafe within 500 m of home (46.9466, 7.4444), from OpenStreetMap (Overpass), nearest first:",
        "1. (unnamed cafe) — amenity=cafe · 68 m",
        "   46.9470418, 7.4450276",
        "2. Café Fédéral — amenity=cafe · 129 m",
        "   Bärenplatz 31, 3011 Bern · 46.9477553, 7.4443017 · hours: Mo-Fr 07:00-23:30; Sa 08:00-23:30; Su " +
          "09:00-18:00 · +41 31 311 11 24 · https://www.cafefederal.ch/",
      ].join("\n"),
    );
    expect(overpassData(overpass.requests[0]!.body)).toBe(
      '[out:json][timeout:25];\n(\n  nwr["amenity"="cafe"](around:500,46.9466,7.4444);\n);\nout tags center 1000;',
    );
  });

  test("maps everyday words to tags and says which types it could not search", async ({ setUp }) => {
    const { harness, overpass } = await setUp({ overpass: answerJson(OVERPASS_EMPTY) });
    const text = await harness.ok("places_nearby_search", {
      latitude: 46.9466,
      longitude: 7.4444,
      included_types: ["Fuel", "gas_station", "pharmacy", "zoo"],
      radius: 2000,
    });
    expect(text).toMatch(
      /^OpenStreetMap \(Overpass\) found no gas_station, pharmacy, zoo within 2000 m of 46\.9466, 7\.4444 .*\n/,
    );
    expect(text).toMatch(/\nNot searched \(no OpenStreetMap equivalent known\): zoo\. Known types: restaurant, cafe,/);
    expect(overpassData(overpass.requests[0]!.body)).toBe(
      "[out:json][timeout:25];\n(\n" +
        '  nwr["amenity"="fuel"](around:2000,46.9466,7.4444);\n' +
        '  nwr["amenity"="pharmacy"](around:2000,46.9466,7.4444);\n' +
        ");\nout tags center 1000;",
    );
  });

  test("refuses types it has no tags for, without asking Overpass", async ({ setUp }) => {
    const { harness, overpass } = await setUp();
    expect(await harness.failure("places_nearby_search", { location: "home", included_types: ["zoo"] })).toMatch(
      /^Error in places_nearby_search: Nothing to search for\.\nNot searched \(no OpenStreetMap equivalent known\): zoo\./,
    );
    expect(overpass.requests).toHaveLength(0);
  });

  test("explains an Overpass query that ran out of time", async ({ setUp }) => {
    const { harness } = await setUp({ overpass: answerJson(OVERPASS_TIMED_OUT) });
    expect(await harness.failure("places_nearby_search", { location: "home", included_types: ["cafe"] })).toBe(
      'Error in places_nearby_search: Overpass stopped without results: runtime error: Query timed out in "query" ' +
        "at line 3 after 26 seconds. Try a smaller radius, or again in a minute.",
    );
  });

  test("warns that the list may be incomplete when Overpass stopped early", async ({ setUp }) => {
    const partial = { ...OVERPASS_CAFES_BERN, remark: OVERPASS_TIMED_OUT.remark };
    const { harness } = await setUp({ overpass: answerJson(partial) });
    const text = await harness.ok("places_nearby_search", { location: "home", included_types: ["cafe"] });
    expect(text).toMatch(/^cafe within 5000 m of home .*\n1\. \(unnamed cafe\)/);
    expect(text).toMatch(
      /\nOverpass stopped early \(runtime error: Query timed out in "query" at line 3 after 26 seconds\.\); nearer places may be missing\.$/,
    );
  });

  test("asks where when given no place", async ({ setUp }) => {
    const { harness } = await setUp();
    expect(await harness.failure("places_nearby_search", { included_types: ["cafe"] })).toBe(
      'Error in places_nearby_search: Say where: give location (a saved place label such as "home", a place name ' +
        'or address, or "lat,lng"), or latitude and longitude.',
    );
  });
});

describe("places_nearby_search with Google Places", () => {
  test("restricts the search to the circle and ranks as asked", async ({ setUp }) => {
    const { harness, google } = await setUp({ key: KEY, google: answerJson(GOOGLE_NEARBY_PHARMACIES) });
    const text = await harness.ok("places_nearby_search", {
      location: "home",
      included_types: ["pharmacy"],
      radius: 300,
      max_results: 3,
      rank_by: "DISTANCE",
    });
    expect(text).toBe(
      [
        "pharmacy within 300 m of home (46.9466, 7.4444), from Google Places, nearest first:",
        "1. Apotheke Dr. Noyer — Apotheke · 4.1★ (96 reviews) · closed now · 172 m",
        "   Marktgasse 44, 3011 Bern, Schweiz · 46.9481402, 7.4442189 · 031 311 27 22",
      ].join("\n"),
    );
    expect(google.requests[0]!.url).toBe("/v1/places:searchNearby");
    expect(JSON.parse(google.requests[0]!.body)).toEqual({
      includedTypes: ["pharmacy"],
      maxResultCount: 3,
      rankPreference: "DISTANCE",
      locationRestriction: { circle: { center: { latitude: 46.9466, longitude: 7.4444 }, radius: 300 } },
    });
  });

  test("takes rank_by in lower case and lowers max_results above 20, saying so", async ({ setUp }) => {
    const { harness, google } = await setUp({ key: KEY, google: answerJson(GOOGLE_NEARBY_PHARMACIES) });
    const args = { location: "home", included_types: ["pharmacy"], max_results: 50, rank_by: "distance" };
    const text = await harness.ok("places_nearby_search", args);
    expect(text).toMatch(/^pharmacy within 5000 m of home .*, from Google Places, nearest first:\n/);
    expect(text).toMatch(/\nNote: max_results 50 was lowered to 20, the most places_nearby_search returns\.$/);
    expect(JSON.parse(google.requests[0]!.body)).toMatchObject({ maxResultCount: 20, rankPreference: "DISTANCE" });
  });

  test("hands on Google's message for a type it does not know", async ({ setUp }) => {
    const { harness } = await setUp({ key: KEY, google: answerJson(GOOGLE_UNSUPPORTED_TYPE, 400) });
    expect(await harness.failure("places_nearby_search", { location: "home", included_types: ["fuel_pump"] })).toBe(
      'Error in places_nearby_search: Google Places refused the request (HTTP 400 INVALID_ARGUMENT): "Unsupported ' +
        'types: fuel_pump.". Fix the arguments.',
    );
  });

  test("falls back to OpenStreetMap when the key's project has not enabled the API", async ({ setUp }) => {
    const { harness, overpass } = await setUp({
      key: KEY,
      google: answerJson(GOOGLE_SERVICE_DISABLED, 403),
      overpass: answerJson(OVERPASS_CAFES_BERN),
    });
    const text = await harness.ok("places_nearby_search", { location: "home", included_types: ["cafe"] });
    expect(text).toMatch(/^Google Places refused the request \(HTTP 403 PERMISSION_DENIED, SERVICE_DISABLED\): /);
    expect(text).toMatch(/ Meanwhile, OpenStreetMap answered:\ncafe within 5000 m of home .*, from OpenStreetMap/);
    expect(overpass.requests).toHaveLength(1);
  });
});

describe("setup_google_auth", () => {
  test("explains step by step how to get a key when none is set", async ({ setUp }) => {
    const { harness, google } = await setUp();
    const text = await harness.ok("setup_google_auth", {});
    expect(text).toMatch(/^GOOGLE_PLACES_API_KEY is not set, so place searches use OpenStreetMap/);
    expect(text).toContain(
      "2. Enable “Places API (New)”: https://console.cloud.google.com/apis/library/places.googleapis.com",
    );
    expect(text).toContain("5. Give it to Marvin: add `export GOOGLE_PLACES_API_KEY=<your key>` to your shell profile");
    expect(google.requests).toHaveLength(0);
  });

  test("checks a key with one request for place IDs only", async ({ setUp }) => {
    const { harness, google } = await setUp({ key: KEY, google: answerJson({ places: [{ id: "ChIJ" }] }) });
    expect(await harness.ok("setup_google_auth", {})).toBe(
      "GOOGLE_PLACES_API_KEY is set and valid: Google Places (New) accepted it, so place searches use Google.",
    );
    expect(google.requests).toHaveLength(1);
    expect(google.requests[0]!.headers["x-goog-fieldmask"]).toBe("places.id");
    expect(JSON.parse(google.requests[0]!.body)).toEqual({ textQuery: "coffee", pageSize: 1 });
  });

  test("says which step to redo when the API is not enabled", async ({ setUp }) => {
    const { harness } = await setUp({ key: KEY, google: answerJson(GOOGLE_SERVICE_DISABLED, 403) });
    const text = await harness.ok("setup_google_auth", {});
    expect(text).toMatch(
      /^GOOGLE_PLACES_API_KEY is set but Google Places does not accept it: HTTP 403 PERMISSION_DENIED \(SERVICE_DISABLED\): "Places API \(New\) has not been used in project 740162372195/,
    );
    expect(text).toContain("\nPlaces API (New) is not enabled for the key's project: do step 2");
  });

  test("says the key is not a key", async ({ setUp }) => {
    const { harness } = await setUp({ key: "nonsense", google: answerJson(GOOGLE_API_KEY_INVALID, 400) });
    const text = await harness.ok("setup_google_auth", {});
    expect(text).toMatch(
      /^GOOGLE_PLACES_API_KEY is set but Google Places does not accept it: HTTP 400 INVALID_ARGUMENT/,
    );
    expect(text).toContain("\nThe key is not a valid key: copy it again from the Credentials page (step 3).");
  });

  test("cannot judge the key when Google does not answer properly", async ({ setUp }) => {
    const { harness } = await setUp({ key: KEY, google: answerJson({ unexpected: true }, 502) });
    expect(await harness.failure("setup_google_auth", {})).toMatch(
      /^Error in setup_google_auth: Google Places answered HTTP 502 \(Bad Gateway\) — try again in a minute\.$/,
    );
  });
});
