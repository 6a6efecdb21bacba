import { describe, expect, it } from "vitest";
import { type ExternalService, encodeQuery, joinUrl, serviceBaseUrl, serviceUrl } from "./service.js";
import { ServiceError } from "./service-error.js";

const OPEN_METEO: ExternalService = {
  name: "Open-Meteo",
  envVar: "MARVIN_OPEN_METEO_URL",
  defaultUrl: "https://api.open-meteo.com",
};

describe("serviceUrl", () => {
  it("joins the versioned path to the default base", () => {
    expect(serviceUrl({}, OPEN_METEO, "/v1/forecast", { latitude: 1, longitude: 2 })).toBe(
      "https://api.open-meteo.com/v1/forecast?latitude=1&longitude=2",
    );
  });

  it("keeps a mount path from the setting and normalises slashes", () => {
    const env = { MARVIN_OPEN_METEO_URL: " https://weather.example.org/open-meteo/// " };
    expect(serviceUrl(env, OPEN_METEO, "/v1/forecast")).toBe("https://weather.example.org/open-meteo/v1/forecast");
    expect(serviceUrl(env, OPEN_METEO, "v1/forecast")).toBe("https://weather.example.org/open-meteo/v1/forecast");
    expect(serviceUrl(env, OPEN_METEO, "")).toBe("https://weather.example.org/open-meteo");
  });

  it("falls back to the default when the setting is empty", () => {
    expect(serviceBaseUrl({ MARVIN_OPEN_METEO_URL: "  " }, OPEN_METEO)).toBe("https://api.open-meteo.com");
  });

  it("refuses a setting that is not an http(s) URL, naming the setting", () => {
    for (const value of ["api.open-meteo.com", "ftp://example.org", "https://example.org/?key=1"]) {
      const attempt = () => serviceBaseUrl({ MARVIN_OPEN_METEO_URL: value }, OPEN_METEO);
      expect(attempt).toThrow(ServiceError);
      expect(attempt).toThrow(/MARVIN_OPEN_METEO_URL is not a usable address for Open-Meteo/);
    }
  });
});

describe("encodeQuery", () => {
  it("leaves out undefined and null, repeats arrays and percent-encodes", () => {
    expect(encodeQuery({ q: "café & co/2", skip: undefined, none: null, id: [1, 2], on: true, n: 0 })).toBe(
      "q=caf%C3%A9%20%26%20co%2F2&id=1&id=2&on=true&n=0",
    );
  });

  it("appends to a path that already has a query", () => {
    const joined = joinUrl("http://h/base/", "/search?format=json", { q: "x y" });
    expect(joined).toBe("http://h/base/search?format=json&q=x%20y");
    expect(joinUrl("http://h", "/p", { skip: undefined })).toBe("http://h/p");
  });

  it("keeps a mount path's trailing slash for the path /, and drops it for no path", () => {
    expect(joinUrl("https://h/ntfy", "/")).toBe("https://h/ntfy/");
    expect(joinUrl("https://h/ntfy/", "/")).toBe("https://h/ntfy/");
    expect(joinUrl("https://h/ntfy/", "")).toBe("https://h/ntfy");
  });
});
