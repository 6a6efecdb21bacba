import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TempDirs } from "../../tests/support/test-session.js";
import { loadSavedPlaces, type SavedPlace, saveSavedPlaces } from "./saved-places.js";

const dirs = new TempDirs();
let dir: string;

beforeEach(async () => {
  dir = await dirs.make("marvin-places-");
});
afterEach(() => dirs.cleanup());

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
  it("round-trips the original's fields as a JSON array", async () => {
    const path = join(dir, "saved_places.json");
    await saveSavedPlaces(path, [home]);
    const raw = JSON.parse(await readFile(path, "utf8"));
    expect(raw).toEqual([home]);
    expect(Object.keys(raw[0])).toEqual(["label", "name", "address", "phone", "website", "lat", "lng", "notes"]);
    expect(await loadSavedPlaces(path)).toEqual({ value: [home] });
  });

  it("is empty when missing", async () => {
    expect(await loadSavedPlaces(join(dir, "saved_places.json"))).toEqual({ value: [] });
  });

  it("moves a file of the wrong shape aside with a warning", async () => {
    const path = join(dir, "saved_places.json");
    await writeFile(path, '{"home": {"address": "1 Main St"}}');
    const loaded = await loadSavedPlaces(path);
    expect(loaded.value).toEqual([]);
    expect(loaded.warning).toContain("does not have the expected structure");
    expect((await readdir(dir)).filter((name) => name.startsWith("saved_places.json.corrupt-"))).toHaveLength(1);
  });
});
