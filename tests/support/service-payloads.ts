/**
 * Answers of the real public services, in their own formats, for the local fixture servers.
 * Shapes follow Open-Meteo's /v1/forecast and Nominatim's /search?format=jsonv2.
 */

const METRIC = { temperature: "°C", wind: "km/h", precipitation: "mm" };
const IMPERIAL = { temperature: "°F", wind: "mph", precipitation: "inch" };

/** Open-Meteo's answer for Bern with current conditions and two days, in local time (Europe/Zurich). */
export function openMeteoForecast(units: "metric" | "imperial" = "metric") {
  const unit = units === "metric" ? METRIC : IMPERIAL;
  const metric = units === "metric";
  return {
    latitude: 46.94,
    longitude: 7.44,
    generationtime_ms: 0.0782012939453125,
    utc_offset_seconds: 3600,
    timezone: "Europe/Zurich",
    timezone_abbreviation: "GMT+1",
    elevation: 549,
    current_units: {
      time: "iso8601",
      interval: "seconds",
      temperature_2m: unit.temperature,
      apparent_temperature: unit.temperature,
      precipitation: unit.precipitation,
      weather_code: "wmo code",
      wind_speed_10m: unit.wind,
    },
    current: {
      time: "2026-11-24T11:15",
      interval: 900,
      temperature_2m: metric ? 4.8 : 40.6,
      apparent_temperature: metric ? 1.6 : 34.9,
      precipitation: 0,
      weather_code: 3,
      wind_speed_10m: metric ? 9.4 : 5.8,
    },
    daily_units: {
      time: "iso8601",
      weather_code: "wmo code",
      temperature_2m_max: unit.temperature,
      temperature_2m_min: unit.temperature,
      apparent_temperature_max: unit.temperature,
      apparent_temperature_min: unit.temperature,
      precipitation_sum: unit.precipitation,
      precipitation_probability_max: "%",
      wind_speed_10m_max: unit.wind,
      sunrise: "iso8601",
      sunset: "iso8601",
    },
    daily: {
      time: ["2026-11-24", "2026-11-25"],
      weather_code: [3, 63],
      temperature_2m_max: metric ? [6.2, 7.9] : [43.2, 46.2],
      temperature_2m_min: metric ? [0.4, 2.1] : [32.7, 35.8],
      apparent_temperature_max: metric ? [3.1, 4.4] : [37.6, 39.9],
      apparent_temperature_min: metric ? [-2.9, -0.8] : [26.8, 30.6],
      precipitation_sum: metric ? [0, 6.3] : [0, 0.248],
      precipitation_probability_max: [5, null],
      wind_speed_10m_max: metric ? [11.2, 23.8] : [7, 14.8],
      sunrise: ["2026-11-24T07:42", "2026-11-25T07:43"],
      sunset: ["2026-11-24T16:47", "2026-11-25T16:46"],
    },
  };
}

const LICENCE = "Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright";

/** Nominatim's jsonv2 answer for "Bern": coordinates and bounding boxes are strings. */
export const NOMINATIM_BERN = [
  {
    place_id: 131862392,
    licence: LICENCE,
    osm_type: "relation",
    osm_id: 1682248,
    lat: "46.9484742",
    lon: "7.4521749",
    category: "boundary",
    type: "administrative",
    place_rank: 16,
    importance: 0.7020827424679069,
    addresstype: "city",
    name: "Bern",
    display_name:
      "Bern, Verwaltungskreis Bern-Mittelland, Verwaltungsregion Bern-Mittelland, Bern/Berne, " +
      "Schweiz/Suisse/Svizzera/Svizra",
    boundingbox: ["46.9190000", "46.9900000", "7.2943000", "7.4955000"],
  },
  {
    place_id: 131295468,
    licence: LICENCE,
    osm_type: "node",
    osm_id: 3220436012,
    lat: "46.9479222",
    lon: "7.4446085",
    category: "railway",
    type: "station",
    place_rank: 30,
    importance: 0.4635487106538837,
    addresstype: "railway",
    name: "",
    display_name: "Bern, Bahnhofplatz, Bern, Verwaltungskreis Bern-Mittelland, Schweiz/Suisse/Svizzera/Svizra",
    boundingbox: ["46.9429222", "46.9529222", "7.4396085", "7.4496085"],
  },
];
