import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test as base, describe, expect } from "../../tests/support/fixtures.js";
import {
  loadJsonFile,
  preserveCorruptFile,
  readTextIfExists,
  writeFileAtomic,
  writeJsonAtomic,
} from "./atomic-file.js";

const test = base.extend<{ dir: string }>({
  dir: async ({ tempDirs }, use) => use(await tempDirs.make("marvin-atomic-")),
});

const parseList = (raw: unknown) => (Array.isArray(raw) ? (raw as string[]) : undefined);

describe("writeFileAtomic", () => {
  test("creates missing directories, writes the content and leaves no temporary file", async ({ dir }) => {
    const path = join(dir, "a", "b", "state.json");
    await writeFileAtomic(path, "first");
    await writeFileAtomic(path, "second");
    expect(await readFile(path, "utf8")).toBe("second");
    expect(await readdir(join(dir, "a", "b"))).toEqual(["state.json"]);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  test("never lets a reader see a torn file while writers race", async ({ dir }) => {
    const path = join(dir, "chat_log.json");
    const versions = Array.from({ length: 20 }, (_, index) =>
      JSON.stringify({ version: index, filler: String(index).repeat(50_000) }),
    );
    await writeFileAtomic(path, versions[0]!);
    let reads = 0;
    let writing = true;
    const reader = (async () => {
      while (writing) {
        const text = await readFile(path, "utf8");
        expect(versions).toContain(text);
        reads += 1;
      }
    })();
    await Promise.all(versions.map((content) => writeFileAtomic(path, content)));
    writing = false;
    await reader;
    expect(reads).toBeGreaterThan(0);
    expect(versions).toContain(await readFile(path, "utf8"));
    expect(await readdir(dir)).toEqual(["chat_log.json"]);
  });

  test("removes its temporary file and throws when the rename fails", async ({ dir }) => {
    const target = join(dir, "taken");
    await mkdir(join(target, "child"), { recursive: true }); // a non-empty directory cannot be replaced by a file
    await expect(writeFileAtomic(target, "data")).rejects.toThrow();
    expect(await readdir(dir)).toEqual(["taken"]);
  });

  test("writes JSON pretty-printed with a trailing newline", async ({ dir }) => {
    const path = join(dir, "places.json");
    await writeJsonAtomic(path, [{ label: "home" }]);
    expect(await readFile(path, "utf8")).toBe('[\n  {\n    "label": "home"\n  }\n]\n');
  });
});

describe("readTextIfExists", () => {
  test("returns undefined only for a missing file", async ({ dir }) => {
    expect(await readTextIfExists(join(dir, "missing"))).toBeUndefined();
    await writeFile(join(dir, "present"), "");
    expect(await readTextIfExists(join(dir, "present"))).toBe("");
    await expect(readTextIfExists(dir)).rejects.toThrow(); // a directory is a real error, not "missing"
  });
});

describe("loadJsonFile", () => {
  test("returns the default silently for a missing or empty file", async ({ dir }) => {
    expect(await loadJsonFile(join(dir, "missing.json"), parseList, () => ["default"])).toEqual({ value: ["default"] });
    await writeFile(join(dir, "empty.json"), "  \n");
    expect(await loadJsonFile(join(dir, "empty.json"), parseList, () => [])).toEqual({ value: [] });
    expect(await readdir(dir)).toEqual(["empty.json"]);
  });

  test("returns the parsed value of a good file", async ({ dir }) => {
    await writeFile(join(dir, "good.json"), '["a","b"]');
    expect(await loadJsonFile(join(dir, "good.json"), parseList, () => [])).toEqual({ value: ["a", "b"] });
  });

  test("moves invalid JSON aside as .corrupt-{ts}, warns where it is, and starts from the default", async ({ dir }) => {
    const path = join(dir, "saved_places.json");
    await writeFile(path, '[{"label": "home",');
    const loaded = await loadJsonFile(path, parseList, () => []);
    expect(loaded.value).toEqual([]);
    const copies = (await readdir(dir)).filter((name) => name.startsWith("saved_places.json.corrupt-"));
    expect(copies).toHaveLength(1);
    expect(copies[0]).toMatch(/^saved_places\.json\.corrupt-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/);
    expect(await readFile(join(dir, copies[0]!), "utf8")).toBe('[{"label": "home",');
    expect(loaded.warning).toContain(`Could not read ${path}: it is not valid JSON`);
    expect(loaded.warning).toContain(`It was moved to ${join(dir, copies[0]!)}; starting from an empty one.`);
    // Moved aside, so the next start does not warn again and the next save cannot destroy it.
    expect(await readTextIfExists(path)).toBeUndefined();
    expect(await loadJsonFile(path, parseList, () => [])).toEqual({ value: [] });
  });

  test("treats valid JSON of the wrong shape like a corrupt file", async ({ dir }) => {
    const path = join(dir, "chat_log.json");
    await writeFile(path, '{"not": "a list"}');
    const loaded = await loadJsonFile(path, parseList, () => []);
    expect(loaded.value).toEqual([]);
    expect(loaded.warning).toContain("it does not have the expected structure");
    expect((await readdir(dir)).some((name) => name.startsWith("chat_log.json.corrupt-"))).toBe(true);
  });
});

describe("preserveCorruptFile", () => {
  test("names the copy after the given time", async ({ dir }) => {
    const path = join(dir, "usage.json");
    await writeFile(path, "{");
    expect(await preserveCorruptFile(path, new Date("2025-03-04T05:06:07.089Z"))).toBe(
      `${path}.corrupt-2025-03-04T05-06-07-089Z`,
    );
  });
});
