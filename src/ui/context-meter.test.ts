import { describe, expect, it } from "vitest";
import { contextMeterLine, formatTokens } from "./context-meter.js";

describe("context meter", () => {
  it("counts tokens in thousands once there are a thousand", () => {
    expect([950, 2_140, 12_345, 128_000].map(formatTokens)).toEqual(["950", "2.1k", "12k", "128k"]);
  });

  it("shows the share of the window used and, once known, the cache hits", () => {
    expect(contextMeterLine(12_345, 128_000, 0.853)).toBe("context 12k/128k (10%) · cache 85%");
    expect(contextMeterLine(2_100, 200_000, undefined)).toBe("context 2.1k/200k (1%)");
    expect(contextMeterLine(2_100, 200_000, 0.5, true)).toBe("context 2.1k/200k (1%) · cache 50% · price unknown");
  });
});
