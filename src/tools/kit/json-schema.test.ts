import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createToolRegistry } from "../index.js";
import { coerceArguments, describeParameters, exampleCall, toParametersSchema } from "./json-schema.js";

const parameters = z.object({
  query: z.string().describe("The search query"),
  max_results: z.number().int().min(1).max(20).default(5).describe("Maximum results"),
  time_filter: z.enum(["", "d", "w"]).default(""),
  count: z.number().int(),
  exact: z.boolean().optional(),
  tags: z.array(z.string()).optional(),
  when: z.union([z.string(), z.number()]).optional(),
});

describe("toParametersSchema", () => {
  it("gives the model a plain object schema: no $schema, no implicit safe-integer bounds", () => {
    const schema = toParametersSchema(parameters);
    expect(schema.$schema).toBeUndefined();
    expect(schema.type).toBe("object");
    expect(schema.required).toEqual(["query", "count"]);
    const properties = schema.properties as Record<string, Record<string, unknown>>;
    expect(properties.count).toEqual({ type: "integer" });
    expect(properties.max_results).toEqual({
      type: "integer",
      minimum: 1,
      maximum: 20,
      default: 5,
      description: "Maximum results",
    });
    expect(properties.query).toEqual({ type: "string", description: "The search query" });
    expect(properties.time_filter).toMatchObject({ enum: ["", "d", "w"], default: "" });
  });

  it("holds for every registered tool in every mode", () => {
    const registry = createToolRegistry();
    for (const codingMode of [false, true]) {
      const text = JSON.stringify(registry.schemas({ codingMode, nonInteractive: false, readonly: false }));
      expect(text).not.toContain("$schema");
      expect(text).not.toContain(String(Number.MAX_SAFE_INTEGER));
      expect(text).not.toContain(String(Number.MIN_SAFE_INTEGER));
    }
  });
});

describe("coerceArguments", () => {
  const schema = toParametersSchema(parameters);

  it("turns numeric and boolean strings into numbers and booleans", () => {
    expect(coerceArguments(schema, { count: "3", max_results: " 7 ", exact: "False" })).toEqual({
      count: 3,
      max_results: 7,
      exact: false,
    });
  });

  it("leaves strings that are not numbers or booleans for validation to report", () => {
    expect(coerceArguments(schema, { count: "three", exact: "maybe", max_results: "" })).toEqual({
      count: "three",
      exact: "maybe",
      max_results: "",
    });
  });

  it("drops null for optional fields but keeps it for required ones", () => {
    expect(coerceArguments(schema, { exact: null, max_results: null, query: null })).toEqual({ query: null });
  });

  it("wraps one string into a list and parses a JSON list", () => {
    expect(coerceArguments(schema, { tags: "x" })).toEqual({ tags: ["x"] });
    expect(coerceArguments(schema, { tags: '["x","y"]' })).toEqual({ tags: ["x", "y"] });
  });

  it("turns a number into text for a text field (a year, an id), but not for one that takes numbers", () => {
    expect(coerceArguments(schema, { query: 1982, when: 5 })).toEqual({ query: "1982", when: 5 });
  });

  it("takes an enum value in another case, when only one value matches", () => {
    expect(coerceArguments(schema, { time_filter: " W" })).toEqual({ time_filter: "w" });
    const mixed = toParametersSchema(z.object({ sort: z.enum(["Top", "top", "new"]) }));
    expect(coerceArguments(mixed, { sort: "TOP" })).toEqual({ sort: "TOP" });
  });

  it("does not touch fields that accept strings, or unknown fields", () => {
    expect(coerceArguments(schema, { when: "5", query: "42", other: "1" })).toEqual({
      when: "5",
      query: "42",
      other: "1",
    });
  });
});

describe("describeParameters and exampleCall", () => {
  const schema = toParametersSchema(parameters);

  it("lists each parameter with type, required or default, and description", () => {
    expect(describeParameters(schema).split("\n")).toEqual([
      "  - query (string, required): The search query",
      "  - max_results (integer, default 5): Maximum results",
      '  - time_filter ("" | "d" | "w", default "")',
      "  - count (integer, required)",
      "  - exact (boolean, optional)",
      "  - tags (array of string, optional)",
      "  - when (string | number, optional)",
    ]);
    expect(describeParameters(toParametersSchema(z.object({})))).toBe("  (no parameters)");
  });

  it("builds a minimal valid call from the required parameters", () => {
    expect(exampleCall("web_search", schema)).toBe('web_search({"query":"...","count":1})');
    expect(exampleCall("list_places", toParametersSchema(z.object({})))).toBe("list_places({})");
    const example = JSON.parse(exampleCall("x", schema).slice(2, -1));
    expect(parameters.safeParse(example).success).toBe(true);
  });
});
