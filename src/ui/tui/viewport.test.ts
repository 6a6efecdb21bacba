import { describe, expect, it } from "vitest";
import { pageSize, scrollBy, visibleRange } from "./viewport.js";

describe("chat viewport", () => {
  it("follows the bottom by default", () => {
    expect(visibleRange(100, 10, null)).toEqual({ start: 90, end: 100, below: 0 });
    expect(visibleRange(4, 10, null)).toEqual({ start: 0, end: 4, below: 0 });
  });

  it("stays on the same lines while new ones arrive after scrolling up", () => {
    const top = scrollBy(null, -20, 100, 10);
    expect(top).toBe(70);
    expect(visibleRange(100, 10, top)).toEqual({ start: 70, end: 80, below: 20 });
    expect(visibleRange(150, 10, top)).toEqual({ start: 70, end: 80, below: 70 });
  });

  it("resumes following once scrolled back to the bottom, and stops at the top", () => {
    expect(scrollBy(85, 10, 100, 10)).toBeNull();
    expect(scrollBy(5, -50, 100, 10)).toBe(0);
    expect(scrollBy(null, 5, 100, 10)).toBeNull();
    expect(pageSize(10)).toBe(9);
  });
});
