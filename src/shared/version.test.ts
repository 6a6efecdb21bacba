import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { marvinVersion } from "./version.js";

describe("marvinVersion", () => {
  it("is the version in Marvin's package.json", () => {
    const text = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
    const manifest = JSON.parse(text) as { version: string };
    expect(marvinVersion()).toBe(manifest.version);
  });
});
