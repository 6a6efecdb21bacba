import { describe, expect, it } from "vitest";
import { hours, priceWithDiscount, storeDate } from "./format.js";

describe("Steam's values made readable", () => {
  it.each([
    ["21 Aug, 2012", "2012-08-21"],
    ["Aug 21, 2012", "2012-08-21"],
    ["5 Dec, 2019", "2019-12-05"],
    ["Sept 3, 2024", "2024-09-03"],
    ["Q3 2026", "Q3 2026"],
    ["Coming soon", "Coming soon"],
    ["To be announced", "To be announced"],
  ])("reads the store's date %j as %j", (text, date) => {
    expect(storeDate(text)).toBe(date);
  });

  it("formats hundredths with the currency, and says what a discount saves", () => {
    expect(priceWithDiscount(null, 1999, "USD")).toBe("$19.99");
    expect(priceWithDiscount(29990, 7497, "BRL")).toBe("R$74.97 (-75% from R$299.90)");
    expect(priceWithDiscount(198000, 198000, "JPY")).toBe("¥1,980");
    expect(priceWithDiscount(999, 999, "XX1")).toBe("9.99 XX1");
  });

  it("counts playtime minutes in hours", () => {
    expect([hours(0), hours(95), hours(123_456)]).toEqual(["0 h", "1.6 h", "2,057.6 h"]);
  });
});
