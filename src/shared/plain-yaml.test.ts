import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { plainYaml } from "./plain-yaml.js";

describe("plainYaml", () => {
  it("writes words plainly, lists as items and maps indented, as the yaml package does", () => {
    const data = { dietary: ["vegetarian", "no nuts"], budget: "moderate", has_car: true, max_distance_km: 10 };
    expect(plainYaml(data)).toBe(
      "dietary:\n  - vegetarian\n  - no nuts\nbudget: moderate\nhas_car: true\nmax_distance_km: 10",
    );
    expect(plainYaml({ home: { city: "Bern", floor: 3 } })).toBe("home:\n  city: Bern\n  floor: 3");
  });

  it("quotes whatever a YAML reader would take for something else, so it reads back as written", () => {
    const data = {
      answer: "yes",
      zip: "3011",
      note: "cheap # not fancy",
      pair: "a: b",
      dash: "- item",
      padded: "word ",
      empty: "",
      nothing: null,
      "odd key": ["true", "@me", { nested: "map in a list" }],
      none: [],
      quote: 'say "hi"',
      multiline: "one\ntwo",
    };
    expect(parse(plainYaml(data))).toEqual(data);
  });
});
