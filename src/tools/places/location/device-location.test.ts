import { describe, expect, it } from "vitest";
import { whereAmIFix } from "./device-location.js";

/** What GeoClue's where-am-i prints for a Wi-Fi fix, as it streams in (C locale). */
const WHERE_AM_I_OUTPUT = [
  "Client object: /org/freedesktop/GeoClue2/Client/1",
  "",
  "New location:",
  "Latitude:    46.947962°",
  "Longitude:   7.443879°",
  "Accuracy:    35.000000 meters",
  "Altitude:    541.000000 meters",
  "Description: WiFi",
  "Timestamp:   Tue 24 Nov 2026 14:30:02 (1795530602 seconds since the Epoch)",
  "",
].join("\n");

describe("whereAmIFix", () => {
  it("reads the first position where-am-i prints", () => {
    expect(whereAmIFix(WHERE_AM_I_OUTPUT)).toEqual({ latitude: 46.947962, longitude: 7.443879, accuracyMeters: 35 });
  });

  it("waits until latitude, longitude and accuracy have all arrived", () => {
    const cut = WHERE_AM_I_OUTPUT.indexOf("Accuracy:");
    expect(whereAmIFix(WHERE_AM_I_OUTPUT.slice(0, cut))).toBeUndefined();
    expect(whereAmIFix("Client object: /org/freedesktop/GeoClue2/Client/1\n")).toBeUndefined();
  });

  it("reads southern and western positions", () => {
    const south =
      "New location:\nLatitude:    -33.868820°\nLongitude:   -70.209300°\nAccuracy:    1000.000000 meters\n";
    expect(whereAmIFix(south)).toEqual({ latitude: -33.86882, longitude: -70.2093, accuracyMeters: 1000 });
  });
});
