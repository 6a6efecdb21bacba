import { describe, expect, it } from "vitest";
import { type ClientSettings, planRequest } from "./request-plan.js";
import type { ExternalService } from "./service.js";

const settings: ClientSettings = { env: {}, signal: new AbortController().signal, trustedOrigins: [] };
const NOMINATIM: ExternalService = {
  name: "Nominatim",
  envVar: "MARVIN_NOMINATIM_URL",
  defaultUrl: "https://nominatim.example.org/nominatim",
};

describe("planRequest", () => {
  it("asks with a 15 s limit, a 5 MB cap and one retry by default", () => {
    const plan = planRequest({ service: NOMINATIM, path: "/search", query: { q: "Bern" } }, {}, settings);
    expect(plan.url.href).toBe("https://nominatim.example.org/nominatim/search?q=Bern");
    expect(plan).toMatchObject({ method: "GET", timeoutMs: 15_000, maxBytes: 5 * 1024 * 1024, retries: true });
    expect(plan.body).toBeUndefined();
    expect(plan.peer).toEqual({
      name: "Nominatim",
      address: "https://nominatim.example.org/nominatim",
      setting: "MARVIN_NOMINATIM_URL",
    });
  });

  it("takes the default limit from MARVIN_HTTP_TIMEOUT, in seconds, and refuses a value that is not one", () => {
    const target = { service: NOMINATIM, path: "/search" };
    const slow = { ...settings, env: { MARVIN_HTTP_TIMEOUT: " 0.5 " } };
    expect(planRequest(target, {}, slow).timeoutMs).toBe(500);
    expect(planRequest(target, { timeoutMs: 60_000 }, slow).timeoutMs).toBe(60_000);
    const wrong = { ...settings, env: { MARVIN_HTTP_TIMEOUT: "soon" } };
    expect(() => planRequest(target, {}, wrong)).toThrow(
      "MARVIN_HTTP_TIMEOUT is 'soon', not a number of seconds. Give e.g. 15, or unset it.",
    );
  });

  it("trusts the service's origin only, and the guard follows MARVIN_ALLOW_PRIVATE_URLS", () => {
    const trusting = { ...settings, trustedOrigins: ["http://127.0.0.1:8080/x"] };
    const plan = planRequest({ service: NOMINATIM, path: "/search" }, {}, trusting);
    expect([...plan.guard.trustedOrigins]).toEqual(["http://127.0.0.1:8080", "https://nominatim.example.org"]);
    expect(plan.guard.allowPrivate).toBe(false);
    const allowing = { ...settings, env: { MARVIN_ALLOW_PRIVATE_URLS: "1" } };
    expect(planRequest({ url: "https://example.org" }, {}, allowing).guard.allowPrivate).toBe(true);
  });

  it("names a model's URL by its host", () => {
    const { peer } = planRequest({ url: "https://example.org:8443/a?b" }, {}, settings);
    expect(peer).toEqual({ name: "example.org:8443", address: "https://example.org:8443/a?b" });
  });

  it("encodes a JSON body as a POST without retries, and lets the caller's headers win", () => {
    const options = { json: { a: 1 }, headers: { "User-Agent": "custom", Title: "Hi" } };
    const plan = planRequest({ url: "https://ntfy.example.org/topic" }, options, settings);
    expect(plan.method).toBe("POST");
    expect(plan.retries).toBe(false);
    expect(plan.body?.toString()).toBe('{"a":1}');
    expect(plan.headers).toMatchObject({ "user-agent": "custom", title: "Hi", "content-type": "application/json" });
    expect(plan.headers["content-length"]).toBe(7);
  });
});
