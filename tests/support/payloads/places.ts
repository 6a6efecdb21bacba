/**
 * Answers of the location services as they really come: ip-api.com's `/json` (HTTP 200 with
 * `status: "fail"` for addresses it cannot place), Google Places API (New) (`{}` when nothing
 * matched, google.rpc.Status error bodies) and Overpass (JSON with `osm3s`, ways with `center`,
 * `remark` on runtime errors, an XHTML page for a rejected query).
 */

/** ip-api.com/json?fields=status,message,country,regionName,city,lat,lon,timezone,isp */
export const IP_API_BERN = {
  status: "success",
  country: "Switzerland",
  regionName: "Bern",
  city: "Bern",
  lat: 46.9481,
  lon: 7.4474,
  timezone: "Europe/Zurich",
  isp: "Swisscom (Schweiz) AG",
};

/** What ip-api.com says for an address in a private range (a machine behind a local proxy). */
export const IP_API_PRIVATE_RANGE = { status: "fail", message: "private range" };

/** places:searchText for "Kaffee" near Bern with the Marvin field mask. */
export const GOOGLE_TEXT_SEARCH_CAFES = {
  places: [
    {
      id: "ChIJ0Qz6Ybg5jkcRmQHGQx3B1w4",
      nationalPhoneNumber: "031 311 11 24",
      formattedAddress: "Bärenplatz 31, 3011 Bern, Schweiz",
      location: { latitude: 46.9477553, longitude: 7.4443017 },
      rating: 4.3,
      websiteUri: "https://www.cafefederal.ch/",
      businessStatus: "OPERATIONAL",
      userRatingCount: 1587,
      displayName: { text: "Café Fédéral", languageCode: "de" },
      currentOpeningHours: { openNow: true },
      primaryTypeDisplayName: { text: "Café", languageCode: "de" },
    },
    {
      id: "ChIJ7-4uMbc5jkcR6y8y_7QvN0c",
      formattedAddress: "Kramgasse 74, 3011 Bern, Schweiz",
      location: { latitude: 46.9478942, longitude: 7.4502381 },
      rating: 4.6,
      businessStatus: "CLOSED_TEMPORARILY",
      userRatingCount: 212,
      displayName: { text: "Adrianos Bar & Café", languageCode: "de" },
      primaryTypeDisplayName: { text: "Coffee Shop", languageCode: "en" },
    },
  ],
};

/** places:searchNearby for pharmacies around the Bundesplatz, ranked by distance. */
export const GOOGLE_NEARBY_PHARMACIES = {
  places: [
    {
      id: "ChIJs1Qz3rc5jkcRj0wqR2pYt8E",
      nationalPhoneNumber: "031 311 27 22",
      formattedAddress: "Marktgasse 44, 3011 Bern, Schweiz",
      location: { latitude: 46.9481402, longitude: 7.4442189 },
      rating: 4.1,
      businessStatus: "OPERATIONAL",
      userRatingCount: 96,
      displayName: { text: "Apotheke Dr. Noyer", languageCode: "de" },
      currentOpeningHours: { openNow: false },
      primaryTypeDisplayName: { text: "Apotheke", languageCode: "de" },
    },
  ],
};

/** Google's answer when a search finds nothing: no `places` field at all. */
export const GOOGLE_NOTHING_FOUND = {};

/** HTTP 400 for a key that does not exist. */
export const GOOGLE_API_KEY_INVALID = {
  error: {
    code: 400,
    message: "API key not valid. Please pass a valid API key.",
    status: "INVALID_ARGUMENT",
    details: [
      {
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        reason: "API_KEY_INVALID",
        domain: "googleapis.com",
        metadata: { service: "places.googleapis.com" },
      },
      {
        "@type": "type.googleapis.com/google.rpc.LocalizedMessage",
        locale: "en-US",
        message: "API key not valid. Please pass a valid API key.",
      },
    ],
  },
};

/** HTTP 403 for a key whose project has not enabled Places API (New). */
export const GOOGLE_SERVICE_DISABLED = {
  error: {
    code: 403,
    message:
      "Places API (New) has not been used in project 740162372195 before or it is disabled. Enable it by visiting " +
      "https://console.developers.google.com/apis/api/places.googleapis.com/overview?project=740162372195 then " +
      "retry. If you enabled this API recently, wait a few minutes for the action to propagate to our systems and " +
      "retry.",
    status: "PERMISSION_DENIED",
    details: [
      {
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        reason: "SERVICE_DISABLED",
        domain: "googleapis.com",
        metadata: {
          service: "places.googleapis.com",
          consumer: "projects/740162372195",
          serviceTitle: "Places API (New)",
          activationUrl:
            "https://console.developers.google.com/apis/api/places.googleapis.com/overview?project=740162372195",
          containerInfo: "740162372195",
        },
      },
      {
        "@type": "type.googleapis.com/google.rpc.Help",
        links: [
          {
            description: "Google developers console API activation",
            url: "https://console.developers.google.com/apis/api/places.googleapis.com/overview?project=740162372195",
          },
        ],
      },
    ],
  },
};

/** HTTP 400 for an included type Google does not know. */
export const GOOGLE_UNSUPPORTED_TYPE = {
  error: { code: 400, message: "Unsupported types: fuel_pump.", status: "INVALID_ARGUMENT" },
};

const OSM3S = {
  timestamp_osm_base: "2026-11-24T13:49:37Z",
  copyright: "The data included in this document is from www.openstreetmap.org. The data is made available under ODbL.",
};

/** Overpass's head of every JSON answer. */
function overpassAnswer(elements: unknown[], remark?: string) {
  return {
    version: 0.6,
    generator: "Overpass API 0.7.62.5 1bd436f1",
    osm3s: OSM3S,
    elements,
    ...(remark ? { remark } : {}),
  };
}

/** Cafés around the Bundesplatz, Bern, as `out tags center;` sends them: a node, and a way with its center. */
export const OVERPASS_CAFES_BERN = overpassAnswer([
  {
    type: "node",
    id: 1234567890,
    lat: 46.9477553,
    lon: 7.4443017,
    tags: {
      "addr:city": "Bern",
      "addr:housenumber": "31",
      "addr:postcode": "3011",
      "addr:street": "Bärenplatz",
      amenity: "cafe",
      name: "Café Fédéral",
      opening_hours: "Mo-Fr 07:00-23:30; Sa 08:00-23:30; Su 09:00-18:00",
      phone: "+41 31 311 11 24",
      website: "https://www.cafefederal.ch/",
      wheelchair: "yes",
    },
  },
  {
    type: "way",
    id: 48213377,
    center: { lat: 46.9497215, lon: 7.4392868 },
    tags: {
      amenity: "cafe",
      building: "yes",
      cuisine: "coffee_shop",
      name: "Turnhalle",
      "contact:website": "https://www.turnhalle.ch/",
    },
  },
  {
    type: "node",
    id: 4450021337,
    lat: 46.9470418,
    lon: 7.4450276,
    tags: { amenity: "cafe", outdoor_seating: "yes" },
  },
]);

/** Nothing matched. */
export const OVERPASS_EMPTY = overpassAnswer([]);

/** A query that ran out of time: HTTP 200, no elements, and the reason in `remark`. */
export const OVERPASS_TIMED_OUT = overpassAnswer(
  [],
  'runtime error: Query timed out in "query" at line 3 after 26 seconds.',
);

/** Counting with `out count;`. */
export const OVERPASS_COUNT = overpassAnswer([
  { type: "count", id: 0, tags: { nodes: "41", ways: "7", relations: "0", total: "48" } },
]);

/** HTTP 400: the XHTML page Overpass sends for a query it cannot parse, quotes as entities. */
export const OVERPASS_PARSE_ERROR_PAGE = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN"
    "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">
<head>
  <meta http-equiv="content-type" content="text/html; charset=utf-8" lang="en"/>
  <title>OSM3S Response</title>
</head>
<body>

<p>The data included in this document is from www.openstreetmap.org. The data is made available under ODbL.</p>
<p><strong style="color:#FF0000">Error</strong>: line 2: parse error: Unknown type &quot;nod&quot; </p>
<p><strong style="color:#FF0000">Error</strong>: line 2: parse error: An empty query is not allowed </p>

</body>
</html>
`;

/** HTTP 504 from the dispatcher when the server is too busy. */
export const OVERPASS_BUSY_PAGE = OVERPASS_PARSE_ERROR_PAGE.replace(
  /<p><strong[\s\S]*<\/p>\n/,
  '<p><strong style="color:#FF0000">Error</strong>: runtime error: open64: 0 Success /osm3s_osm_base ' +
    "Dispatcher_Client::request_read_and_idx::timeout. The server is probably too busy to handle your request. </p>\n",
);

/** Nominatim's jsonv2 answer for "Apotheke" inside a bounded viewbox around the Bundesplatz. */
export const NOMINATIM_PHARMACY_BERN = [
  {
    place_id: 131749281,
    licence: "Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright",
    osm_type: "node",
    osm_id: 2397104877,
    lat: "46.9481402",
    lon: "7.4442189",
    category: "amenity",
    type: "pharmacy",
    place_rank: 30,
    importance: 0.00000999999999995449,
    addresstype: "amenity",
    name: "Apotheke Dr. Noyer",
    display_name:
      "Apotheke Dr. Noyer, 44, Marktgasse, Altstadt, Bern, Verwaltungskreis Bern-Mittelland, " +
      "Verwaltungsregion Bern-Mittelland, Bern/Berne, 3011, Schweiz/Suisse/Svizzera/Svizra",
    boundingbox: ["46.9480902", "46.9481902", "7.4441689", "7.4442689"],
  },
];
