import { chmodSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test as base, describe, expect } from "../../tests/support/fixtures.js";
import { appendInputHistory, loadInputHistory } from "./input-history.js";

/** Where a profile's input history lives, in a fresh temp folder. */
const test = base.extend<{ path: string }>({
  path: async ({ tempDirs }, use) => use(join(await tempDirs.make("marvin-history-"), "profiles", "main", "history")),
});

describe("input history file", () => {
  test("is empty when the file does not exist", async ({ path }) => {
    expect(await loadInputHistory(path)).toEqual([]);
  });

  test("writes one entry per line, oldest first, creating the profile folder", async ({ path }) => {
    await appendInputHistory(path, "what's the weather?");
    await appendInputHistory(path, "!code");
    expect(readFileSync(path, "utf8")).toBe("what's the weather?\n!code\n");
    expect(await loadInputHistory(path)).toEqual(["what's the weather?", "!code"]);
  });

  test("is owner-only, also when an older version left it readable by others", async ({ path }) => {
    await appendInputHistory(path, "my bank password is not this");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    chmodSync(path, 0o644);
    await appendInputHistory(path, "usage");
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  test("skips blank entries and an immediate repeat", async ({ path }) => {
    await appendInputHistory(path, "usage");
    await appendInputHistory(path, "usage");
    await appendInputHistory(path, "   ");
    await appendInputHistory(path, "usage  \n");
    await appendInputHistory(path, "saved");
    expect(readFileSync(path, "utf8")).toBe("usage\nsaved\n");
  });

  test("keeps a multi-line entry on one line of the file and gives its line breaks back", async ({ path }) => {
    await appendInputHistory(path, "first line\nsecond line\r\nthird\rfourth");
    await appendInputHistory(path, "one more");
    expect(readFileSync(path, "utf8")).toBe("first line\\012second line\\012third\\012fourth\none more\n");
    expect(await loadInputHistory(path)).toEqual(["first line\nsecond line\nthird\nfourth", "one more"]);
  });

  test("round-trips backslashes, including text that looks like the line-break escape", async ({ path }) => {
    const entries = ["dir C:\\temp\\new", "printf 'a\\012b'", "\\\\134 and \\134012\nnext", "ends with \\"];
    for (const entry of entries) await appendInputHistory(path, entry);
    expect(readFileSync(path, "utf8").split("\n").slice(0, 2)).toEqual(["dir C:\\temp\\new", "printf 'a\\134012b'"]);
    expect(await loadInputHistory(path)).toEqual(entries);
  });

  test("keeps only the newest entries beyond the limit", async ({ path }) => {
    for (const entry of ["a", "b", "c", "d", "e"]) await appendInputHistory(path, entry, 3);
    expect(readFileSync(path, "utf8")).toBe("c\nd\ne\n");
  });

  test("keeps entries another Marvin process wrote in the meantime", async ({ path }) => {
    await appendInputHistory(path, "mine");
    writeFileSync(path, "mine\ntheirs\n");
    await appendInputHistory(path, "mine again");
    expect(await loadInputHistory(path)).toEqual(["mine", "theirs", "mine again"]);
  });

  test("reads the Python original's history, GNU readline or libedit format", async ({ path }) => {
    await appendInputHistory(path, "seed"); // creates the folder
    writeFileSync(path, "find sushi near me\nprofiles\n");
    expect(await loadInputHistory(path)).toEqual(["find sushi near me", "profiles"]);
    writeFileSync(path, "_HiStOrY_V2_\nfind\\040sushi\\040near\\040me\nsaved\n");
    expect(await loadInputHistory(path)).toEqual(["find sushi near me", "saved"]);
  });
});
