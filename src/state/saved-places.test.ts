import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test as base, describe, expect } from "../../tests/support/fixtures.js";
import { loadSavedPlaces, type SavedPlace, saveSavedPlaces } from "./saved-places.js";

const test = base.extend<{ dir: string }>({
  dir: async ({ tempDirs }, use) => use(await tempDirs.make("marvin-places-")),
});

const home: SavedPlace = {
  label: "home",
  name: "Flat",
  address: "1 Main St",
  phone: "",
  website: "",
  lat: 52.52,
  lng: 13.405,
  notes: "3rd floor",
};

describe("saved_places.json", () => {
  test("round-trips the original's fields as a JSON array", async ({ dir }) => {
    const path = join(dir, "saved_places.json");
    await saveSavedPlaces(path, [home]);
    const raw = JSON.parse(await readFile(path, "utf8"));
    expect(raw).toEqual([home]);
    expect(Object.keys(raw[0])).toEqual(["label", "name", "address", "phone", "website", "lat", "lng", "notes"]);
    expect(await loadSavedPlaces(path)).toEqual({ value: [home] });
  });

  test("is empty when missing", async ({ dir }) => {
    expect(await loadSavedPlaces(join(dir, "saved_places.json"))).toEqual({ value: [] });
  });

  test("moves a file of the wrong shape aside with a warning", async ({ dir }) => {
    const path = join(dir, "saved_places.json");
    await writeFile(path, '{"home": {"address": "1 Main St"}}');
    const loaded = await loadSavedPlaces(path);
    expect(loaded.value).toEqual([]);
    expect(loaded.warning).toContain("does not have the expected structure");
    expect((await readdir(dir)).filter((name) => name.startsWith("saved_places.json.corrupt-"))).toHaveLength(1);
  });
});
