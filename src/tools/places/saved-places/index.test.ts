import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test as base, describe, expect } from "../../../../tests/support/fixtures.js";
import type { ToolHarness } from "../../../../tests/support/tool-harness.js";

/** A session over `home` with every tool. */
const test = base.extend<{ harness: ToolHarness }>({
  harness: async ({ harnesses, home }, use) => use(await harnesses.open({ home })),
});

const profileDir = (home: string, name = "main") => join(home, ".config", "local-finder", "profiles", name);
const placesFile = (home: string, name = "main") => join(profileDir(home, name), "saved_places.json");

describe("save_place", () => {
  test("saves a place with the original's fields and defaults", async ({ harness, home }) => {
    const outcome = await harness.call("save_place", {
      label: "home",
      address: "1 Main St",
      lat: 52.52,
      lng: "13.405",
    });
    expect(outcome).toEqual({ isError: false, result: "Saved place 'home'.\n- home: 1 Main St · (52.52, 13.405)" });
    expect(JSON.parse(await readFile(placesFile(home), "utf8"))).toEqual([
      { label: "home", name: "", address: "1 Main St", phone: "", website: "", lat: 52.52, lng: 13.405, notes: "" },
    ]);
  });

  test("updates a place saved under the same label, whatever its case", async ({ harness, home }) => {
    await harness.call("save_place", { label: "Work", address: "Old Office" });
    const outcome = await harness.call("save_place", { label: "work", name: "ACME", address: "New Office" });
    expect(outcome.result).toMatch(/^Updated place 'work'\./);
    const saved = JSON.parse(await readFile(placesFile(home), "utf8"));
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ label: "work", name: "ACME", address: "New Office" });
  });

  test("requires a label", async ({ harness }) => {
    const outcome = await harness.call("save_place", { address: "somewhere" });
    expect(outcome.isError).toBe(true);
    expect(outcome.result).toContain("- label: required (string)");
  });

  test("says so when the file was unreadable, and keeps the old one aside", async ({ harness, home }) => {
    await mkdir(profileDir(home), { recursive: true });
    await writeFile(placesFile(home), "{broken");
    const outcome = await harness.call("save_place", { label: "gym" });
    expect(outcome.result).toMatch(
      /^Could not read .*saved_places\.json: it is not valid JSON.*\nSaved place 'gym'\./s,
    );
    expect((await readdir(profileDir(home))).some((name) => name.startsWith("saved_places.json.corrupt-"))).toBe(true);
  });
});

describe("list_places and remove_place", () => {
  test("lists places with their details", async ({ harness }) => {
    expect((await harness.call("list_places", {})).result).toBe("No saved places yet. Use save_place to add one.");
    await harness.call("save_place", { label: "home", name: "Flat", address: "1 Main St", notes: "3rd floor" });
    await harness.call("save_place", { label: "gym", phone: "+49 30 123" });
    expect((await harness.call("list_places", {})).result).toBe(
      "Saved places (2):\n- home: Flat · 1 Main St · 3rd floor\n- gym: +49 30 123",
    );
  });

  test("removes by label and lists the labels when there is no such place", async ({ harness, home }) => {
    await harness.call("save_place", { label: "home" });
    await harness.call("save_place", { label: "gym" });
    expect((await harness.call("remove_place", { label: "HOME" })).result).toBe("Removed place 'HOME'.");
    expect((await harness.call("remove_place", { label: "office" })).result).toBe(
      "No saved place labelled 'office'. Saved labels: gym.",
    );
    expect(JSON.parse(await readFile(placesFile(home), "utf8")).map((place: { label: string }) => place.label)).toEqual(
      ["gym"],
    );
  });

  test("keeps each profile's places apart", async ({ harness, home }) => {
    await harness.call("save_place", { label: "home" });
    await harness.call("switch_profile", { profile_name: "kid" });
    expect((await harness.call("list_places", {})).result).toBe("No saved places yet. Use save_place to add one.");
    await harness.call("save_place", { label: "school" });
    expect(JSON.parse(await readFile(placesFile(home, "kid"), "utf8"))).toHaveLength(1);
    expect(JSON.parse(await readFile(placesFile(home, "main"), "utf8"))[0].label).toBe("home");
  });
});

describe("save_place called in parallel", () => {
  test("keeps every place when one answer saves several at once", async ({ harness }) => {
    const labels = ["home", "work", "gym", "school"];
    await Promise.all(labels.map((label, index) => harness.ok("save_place", { label, lat: 46 + index, lng: 7 })));
    const listed = await harness.ok("list_places", {});
    for (const label of labels) expect(listed).toContain(`- ${label}:`);
  });
});
