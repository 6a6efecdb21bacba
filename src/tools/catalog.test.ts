import { describe, expect, it } from "vitest";
import { FAMILY_LOADERS } from "./families.js";
import { familyCatalog } from "./kit/tool-family.js";

/**
 * src/tools/catalog.json is what a run offers before it loads a family's code: each built-in tool's name,
 * description, effect, modes and parameter schema. It must say exactly what the code says; after changing a tool,
 * `npx vitest run src/tools/catalog.test.ts -u` writes it anew.
 */
describe("the tool catalog", () => {
  it("matches the tool definitions", async () => {
    const families = await Promise.all(FAMILY_LOADERS.map(([, load]) => load()));
    expect(families.map((family) => family.name)).toEqual(FAMILY_LOADERS.map(([name]) => name));
    const catalog = `${JSON.stringify({ families: families.map(familyCatalog) }, null, 2)}\n`;
    await expect(catalog).toMatchFileSnapshot("./catalog.json");
  });
});
