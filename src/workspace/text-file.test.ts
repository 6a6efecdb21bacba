import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveInside } from "./sandbox.js";
import { createTextFile, readEditableText, writeTextFile } from "./text-file.js";

let base: string;
let root: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "marvin-text-file-")));
  root = join(base, "proj");
  await mkdir(root);
  await mkdir(join(base, "outside"));
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("writing after the sandbox check", () => {
  it("does not follow a symlink planted at the checked path after the check", async () => {
    const checked = await resolveInside(root, "new.txt", { write: true });
    await symlink(join(base, "outside", "planted.txt"), checked);
    expect(await createTextFile(checked, "x")).toBe(false);
    await expect(writeTextFile(checked, "x")).rejects.toThrow("not a regular file");
    expect(existsSync(join(base, "outside", "planted.txt"))).toBe(false);
  });
});

describe("writeTextFile", () => {
  it("replaces an existing file keeping its mode, and creates new ones", async () => {
    await writeFile(join(root, "tool.sh"), "old\n");
    await chmod(join(root, "tool.sh"), 0o750);
    await writeTextFile(join(root, "tool.sh"), "new\n");
    expect(await readFile(join(root, "tool.sh"), "utf8")).toBe("new\n");
    expect((await stat(join(root, "tool.sh"))).mode & 0o777).toBe(0o750);
    await writeTextFile(join(root, "a/b/c.txt"), "deep\n");
    expect(await readFile(join(root, "a/b/c.txt"), "utf8")).toBe("deep\n");
  });
});

describe("readEditableText", () => {
  it("reads UTF-8, returns undefined for a missing file, and refuses other encodings and directories", async () => {
    await writeFile(join(root, "ok.txt"), "naïve � kept\n");
    expect(await readEditableText(join(root, "ok.txt"), "ok.txt")).toBe("naïve � kept\n");
    expect(await readEditableText(join(root, "missing.txt"), "missing.txt")).toBeUndefined();
    await writeFile(join(root, "latin1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    await expect(readEditableText(join(root, "latin1.txt"), "latin1.txt")).rejects.toThrow("not a UTF-8 text file");
    await expect(readEditableText(root, "proj")).rejects.toThrow("is a directory");
  });
});
