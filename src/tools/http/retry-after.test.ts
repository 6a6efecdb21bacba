import { describe, expect, it } from "vitest";
import { retryAfterMs } from "./retry-after.js";

describe("retryAfterMs", () => {
  const now = Date.parse("2025-01-01T12:00:00Z");

  it("reads delay-seconds", () => {
    expect(retryAfterMs("1", now)).toBe(1000);
    expect(retryAfterMs(" 3600 ", now)).toBe(3_600_000);
  });

  it("reads an HTTP-date, never below zero", () => {
    expect(retryAfterMs("Wed, 01 Jan 2025 12:00:30 GMT", now)).toBe(30_000);
    expect(retryAfterMs("Wed, 01 Jan 2025 11:00:00 GMT", now)).toBe(0);
    expect(retryAfterMs("Wednesday, 01-Jan-25 12:00:10 GMT", now)).toBe(10_000);
  });

  it("ignores a missing or unreadable header", () => {
    expect(retryAfterMs(undefined, now)).toBeUndefined();
    expect(retryAfterMs("", now)).toBeUndefined();
    expect(retryAfterMs("soon", now)).toBeUndefined();
    expect(retryAfterMs("-5", now)).toBeUndefined();
  });
});
