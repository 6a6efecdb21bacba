import { describe, expect, it } from "vitest";
import { parseRetryAfter, retryAfterFromHeaders } from "./retry-after.js";

const NOW = new Date("2025-06-01T12:00:00Z");

describe("parseRetryAfter", () => {
  it("reads delay-seconds as milliseconds", () => {
    expect(parseRetryAfter("7", NOW)).toBe(7_000);
    expect(parseRetryAfter(" 120 ", NOW)).toBe(120_000);
    expect(parseRetryAfter("0", NOW)).toBe(0);
    expect(parseRetryAfter("1.5", NOW)).toBe(1_500);
  });

  it("reads an HTTP-date as the time left until then", () => {
    expect(parseRetryAfter("Sun, 01 Jun 2025 12:00:30 GMT", NOW)).toBe(30_000);
    expect(parseRetryAfter("Sunday, 01-Jun-25 12:00:10 GMT", NOW)).toBe(10_000);
  });

  it("makes a date in the past mean no wait", () => {
    expect(parseRetryAfter("Sun, 01 Jun 2025 11:59:00 GMT", NOW)).toBe(0);
  });

  it("is undefined for a missing, blank, negative or unreadable value", () => {
    for (const value of [undefined, null, "", "  ", "-5", "soon", "1e3", "Infinity", "5 seconds"]) {
      expect(parseRetryAfter(value, NOW), String(value)).toBeUndefined();
    }
  });
});

describe("retryAfterFromHeaders", () => {
  it("prefers the precise retry-after-ms over retry-after", () => {
    expect(retryAfterFromHeaders(new Headers({ "retry-after-ms": "250", "retry-after": "1" }), NOW)).toBe(250);
  });

  it("falls back to retry-after, and to undefined without either", () => {
    expect(retryAfterFromHeaders(new Headers({ "retry-after": "3" }), NOW)).toBe(3_000);
    expect(retryAfterFromHeaders(new Headers({ "retry-after-ms": "later", "retry-after": "3" }), NOW)).toBe(3_000);
    expect(retryAfterFromHeaders(new Headers(), NOW)).toBeUndefined();
    expect(retryAfterFromHeaders(undefined, NOW)).toBeUndefined();
  });
});
