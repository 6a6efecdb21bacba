import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import YAML from "yaml";
import { test as base, describe, expect } from "../../tests/support/fixtures.js";
import { configPaths, type ProfilePaths, profilePaths } from "./paths.js";
import { DEFAULT_PREFERENCES_YAML, loadPreferences, updatePreference } from "./preferences.js";

/** The main profile's paths over `home`, its folder made. */
const test = base.extend<{ paths: ProfilePaths }>({
  paths: async ({ home }, use) => {
    const paths = profilePaths(configPaths(home), "main");
    await mkdir(paths.dir, { recursive: true });
    await use(paths);
  },
});

/** "Billion laughs": nine levels of nine aliases each, 9^9 strings once expanded. */
function aliasBomb(): string {
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (const [index, name] of [..."bcdefghi"].entries()) {
    const previous = "abcdefghi"[index]!;
    lines.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(",")}]`);
  }
  return `${lines.join("\n")}\n`;
}

const COMMENTED = `# My preferences — keep this comment
dietary: [vegetarian] # no meat
budget: moderate

# distances in km
max_distance_km: 10
favorite_cuisines:
  - thai # the best
  - ramen
`;

describe("loadPreferences", () => {
  test("reads preferences.yaml as a mapping", async ({ paths }) => {
    await writeFile(paths.preferences, COMMENTED);
    expect(await loadPreferences(paths)).toEqual({
      value: { dietary: ["vegetarian"], budget: "moderate", max_distance_km: 10, favorite_cuisines: ["thai", "ramen"] },
    });
  });

  test("reads the legacy prefs.yaml when preferences.yaml is missing", async ({ paths }) => {
    await writeFile(paths.legacyPreferences, "budget: cheap\n");
    expect((await loadPreferences(paths)).value).toEqual({ budget: "cheap" });
    await writeFile(paths.preferences, "budget: fancy\n");
    expect((await loadPreferences(paths)).value).toEqual({ budget: "fancy" });
  });

  test("is empty, without a warning, when there is no file or the file is empty", async ({ paths }) => {
    expect(await loadPreferences(paths)).toEqual({ value: {} });
    await writeFile(paths.preferences, "# only a comment\n");
    expect(await loadPreferences(paths)).toEqual({ value: {} });
  });

  test("moves broken YAML aside with a warning and uses defaults", async ({ paths }) => {
    await writeFile(paths.preferences, "dietary: [unclosed\n  budget: : :\n");
    const loaded = await loadPreferences(paths);
    expect(loaded.value).toEqual({});
    expect(loaded.warning).toContain(`Could not read ${paths.preferences}: it is not a YAML mapping.`);
    const aside = (await readdir(paths.dir)).find((name) => name.startsWith("preferences.yaml.corrupt-"));
    expect(aside).toBeDefined();
    expect(loaded.warning).toContain(aside);
  });

  test("refuses a YAML alias bomb quickly: moved aside with a warning, defaults used", async ({ paths }) => {
    await writeFile(paths.preferences, aliasBomb());
    const started = Date.now();
    const loaded = await loadPreferences(paths);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(loaded.value).toEqual({});
    const aside = (await readdir(paths.dir)).find((name) => name.startsWith("preferences.yaml.corrupt-"))!;
    expect(loaded.warning).toBe(
      `Could not read ${paths.preferences}: it is not usable YAML (Excessive alias count indicates a resource ` +
        `exhaustion attack). ` +
        `It was moved to ${join(paths.dir, aside)}; default preferences are used.`,
    );
    expect(await readFile(join(paths.dir, aside), "utf8")).toBe(aliasBomb());
  });

  test("still reads a file with a few aliases", async ({ paths }) => {
    await writeFile(paths.preferences, "home_cuisine: &fav thai\nfavorite_cuisines: [*fav, ramen]\n");
    expect(await loadPreferences(paths)).toEqual({
      value: { home_cuisine: "thai", favorite_cuisines: ["thai", "ramen"] },
    });
  });

  test("moves a directory in place of preferences.yaml aside with a warning, defaults used", async ({ paths }) => {
    await mkdir(join(paths.preferences, "inside"), { recursive: true });
    await writeFile(paths.legacyPreferences, "budget: cheap\n");
    const loaded = await loadPreferences(paths);
    expect(loaded.value).toEqual({});
    expect(loaded.warning).toMatch(
      /^Could not read .*preferences\.yaml: it is a directory, not a file\. It was moved to .*preferences\.yaml\.corrupt-/,
    );
    expect(loaded.warning).toContain("default preferences are used.");
    expect((await readdir(paths.dir)).filter((name) => name.startsWith("preferences.yaml.corrupt-"))).toHaveLength(1);
  });

  test("treats a YAML list at the top as broken, not as preferences", async ({ paths }) => {
    await writeFile(paths.preferences, "- a\n- b\n");
    expect((await loadPreferences(paths)).warning).toContain("not a YAML mapping");
  });
});

describe("updatePreference", () => {
  test("sets a scalar, keeping the user's comments and layout", async ({ paths }) => {
    await writeFile(paths.preferences, COMMENTED);
    expect(await updatePreference(paths, "budget", "set", "cheap")).toBe('budget set to "cheap"');
    const text = await readFile(paths.preferences, "utf8");
    expect(text).toContain("# My preferences — keep this comment");
    expect(text).toContain("# no meat");
    expect(text).toContain("# distances in km");
    expect(text).toContain("budget: cheap");
    expect(text.indexOf("budget")).toBeLessThan(text.indexOf("max_distance_km"));
  });

  test("reads numbers and booleans as a person types them", async ({ paths }) => {
    await writeFile(paths.preferences, COMMENTED);
    await updatePreference(paths, "max_distance_km", "set", "25");
    await updatePreference(paths, "has_car", "set", "no");
    expect((await loadPreferences(paths)).value).toMatchObject({ max_distance_km: 25, has_car: false });
  });

  test("sets a list from comma-separated values when the key is a list", async ({ paths }) => {
    await writeFile(paths.preferences, COMMENTED);
    await updatePreference(paths, "favorite_cuisines", "set", "sushi, tacos");
    expect((await loadPreferences(paths)).value.favorite_cuisines).toEqual(["sushi", "tacos"]);
  });

  test("adds list items without duplicates and removes them", async ({ paths }) => {
    await writeFile(paths.preferences, COMMENTED);
    expect(await updatePreference(paths, "dietary", "add", "vegetarian, gluten-free")).toBe(
      "added gluten-free to dietary",
    );
    expect(await updatePreference(paths, "dietary", "add", "gluten-free")).toBe("dietary already contains gluten-free");
    expect((await loadPreferences(paths)).value.dietary).toEqual(["vegetarian", "gluten-free"]);
    expect(await updatePreference(paths, "dietary", "remove", "vegetarian")).toBe("removed vegetarian from dietary");
    expect(await updatePreference(paths, "dietary", "remove", "vegan")).toBe("dietary did not contain vegan");
    expect((await loadPreferences(paths)).value.dietary).toEqual(["gluten-free"]);
    expect(await readFile(paths.preferences, "utf8")).toContain("# My preferences — keep this comment");
  });

  test("keeps the comments on a list and on its remaining items when editing it", async ({ paths }) => {
    await writeFile(paths.preferences, COMMENTED);
    await updatePreference(paths, "favorite_cuisines", "remove", "ramen");
    await updatePreference(paths, "favorite_cuisines", "add", "sushi");
    await updatePreference(paths, "dietary", "set", "vegan, halal");
    const text = await readFile(paths.preferences, "utf8");
    expect(text).toContain("  - thai # the best\n  - sushi\n");
    expect(text).toContain("dietary: [ vegan, halal ] # no meat");
  });

  test("adds to a key that does not exist yet, or turns a scalar into a list", async ({ paths }) => {
    await writeFile(paths.preferences, COMMENTED);
    await updatePreference(paths, "allergies", "add", "peanuts");
    await updatePreference(paths, "budget", "add", "cheap");
    expect((await loadPreferences(paths)).value).toMatchObject({
      allergies: ["peanuts"],
      budget: ["moderate", "cheap"],
    });
  });

  test("starts from the default preferences when there is no file", async ({ paths }) => {
    await updatePreference(paths, "budget", "set", "cheap");
    const written = YAML.parse(await readFile(paths.preferences, "utf8"));
    expect(written).toEqual({ ...YAML.parse(DEFAULT_PREFERENCES_YAML), budget: "cheap" });
    expect(await readFile(paths.preferences, "utf8")).toContain("# Marvin preferences");
  });

  test("updates a legacy prefs.yaml into preferences.yaml, keeping its comments", async ({ paths }) => {
    await writeFile(paths.legacyPreferences, "# old file\nbudget: moderate\n");
    await updatePreference(paths, "budget", "set", "cheap");
    expect(await readFile(paths.preferences, "utf8")).toBe("# old file\nbudget: cheap\n");
    expect(await readFile(paths.legacyPreferences, "utf8")).toBe("# old file\nbudget: moderate\n");
  });

  test("refuses to update through an alias bomb, leaving the file as it is", async ({ paths }) => {
    await writeFile(paths.preferences, aliasBomb());
    await expect(updatePreference(paths, "budget", "set", "cheap")).rejects.toThrow(
      `${paths.preferences} is not valid YAML; fix it`,
    );
    expect(await readFile(paths.preferences, "utf8")).toBe(aliasBomb());
  });

  test("says what to do when preferences.yaml is a directory", async ({ paths }) => {
    await mkdir(paths.preferences);
    await expect(updatePreference(paths, "budget", "set", "cheap")).rejects.toThrow(
      `${paths.preferences} cannot be updated: it is a directory, not a file. Move it away and try again.`,
    );
  });

  test("refuses to overwrite a file it cannot parse, and says what to do", async ({ paths }) => {
    const broken = "dietary: [unclosed\n";
    await writeFile(paths.preferences, broken);
    await expect(updatePreference(paths, "budget", "set", "cheap")).rejects.toThrow(
      `${paths.preferences} is not valid YAML; fix it`,
    );
    expect(await readFile(paths.preferences, "utf8")).toBe(broken);
  });
});
