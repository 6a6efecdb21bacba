import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appendInputHistory, loadInputHistory } from "./input-history.js";

let dir: string;
let path: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "marvin-history-"));
  path = join(dir, "profiles", "main", "history");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("input history file", () => {
  it("is empty when the file does not exist", async () => {
    expect(await loadInputHistory(path)).toEqual([]);
  });

  it("writes one entry per line, oldest first, creating the profile folder", async () => {
    await appendInputHistory(path, "what's the weather?");
    await appendInputHistory(path, "!code");
    expect(readFileSync(path, "utf8")).toBe("what's the weather?\n!code\n");
    expect(await loadInputHistory(path)).toEqual(["what's the weather?", "!code"]);
  });

  it("skips blank entries and an immediate repeat", async () => {
    await appendInputHistory(path, "usage");
    await appendInputHistory(path, "usage");
    await appendInputHistory(path, "   ");
    await appendInputHistory(path, "usage  \n");
    await appendInputHistory(path, "saved");
    expect(readFileSync(path, "utf8")).toBe("usage\nsaved\n");
  });

  it("keeps a multi-line entry on one line of the file and gives its line breaks back", async () => {
    await appendInputHistory(path, "first line\nsecond line\r\nthird\rfourth");
    await appendInputHistory(path, "one more");
    expect(readFileSync(path, "utf8")).toBe("first line\\012second line\\012third\\012fourth\none more\n");
    expect(await loadInputHistory(path)).toEqual(["first line\nsecond line\nthird\nfourth", "one more"]);
  });

  it("round-trips backslashes, including text that looks like the line-break escape", async () => {
    const entries = ["dir C:\\temp\\new", "printf 'a\\012b'", "\\\\134 and \\134012\nnext", "ends with \\"];
    for (const entry of entries) await appendInputHistory(path, entry);
    expect(readFileSync(path, "utf8").split("\n").slice(0, 2)).toEqual(["dir C:\\temp\\new", "printf 'a\\134012b'"]);
    expect(await loadInputHistory(path)).toEqual(entries);
  });

  it("keeps only the newest entries beyond the limit", async () => {
    for (const entry of ["a", "b", "c", "d", "e"]) await appendInputHistory(path, entry, 3);
    expect(readFileSync(path, "utf8")).toBe("c\nd\ne\n");
  });

  it("keeps entries another Marvin process wrote in the meantime", async () => {
    await appendInputHistory(path, "mine");
    writeFileSync(path, "mine\ntheirs\n");
    await appendInputHistory(path, "mine again");
    expect(await loadInputHistory(path)).toEqual(["mine", "theirs", "mine again"]);
  });

  it("reads the Python original's history, GNU readline or libedit format", async () => {
    await appendInputHistory(path, "seed"); // creates the folder
    writeFileSync(path, "find sushi near me\nprofiles\n");
    expect(await loadInputHistory(path)).toEqual(["find sushi near me", "profiles"]);
    writeFileSync(path, "_HiStOrY_V2_\nfind\\040sushi\\040near\\040me\nsaved\n");
    expect(await loadInputHistory(path)).toEqual(["find sushi near me", "saved"]);
  });
});
