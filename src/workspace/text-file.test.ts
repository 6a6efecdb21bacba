import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test as base, describe, expect } from "../../tests/support/fixtures.js";
import { resolveInside } from "./sandbox.js";
import { createTextFile, readEditableText, writeTextFile } from "./text-file.js";

const test = base.extend<{
  /** The test's temp folder: proj/ (the working dir) and outside/. */
  parent: string;
  root: string;
}>({
  parent: async ({ tempDirs }, use) => {
    const parent = await tempDirs.make("marvin-text-file-");
    await mkdir(join(parent, "outside"));
    await use(parent);
  },
  root: async ({ parent }, use) => {
    await mkdir(join(parent, "proj"));
    await use(join(parent, "proj"));
  },
});

describe("writing after the sandbox check", () => {
  test("does not follow a symlink planted at the checked path after the check", async ({ parent, root }) => {
    const checked = await resolveInside(root, "new.txt", { write: true });
    await symlink(join(parent, "outside", "planted.txt"), checked);
    expect(await createTextFile(checked, "x")).toBe(false);
    await expect(writeTextFile(checked, "x")).rejects.toThrow("not a regular file");
    expect(existsSync(join(parent, "outside", "planted.txt"))).toBe(false);
  });
});

describe("writeTextFile", () => {
  test("replaces an existing file keeping its mode, and creates new ones", async ({ root }) => {
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
  test("reads UTF-8, returns undefined for a missing file, and refuses other encodings and directories", async ({
    root,
  }) => {
    await writeFile(join(root, "ok.txt"), "naïve � kept\n");
    expect(await readEditableText(join(root, "ok.txt"), "ok.txt")).toBe("naïve � kept\n");
    expect(await readEditableText(join(root, "missing.txt"), "missing.txt")).toBeUndefined();
    await writeFile(join(root, "latin1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    await expect(readEditableText(join(root, "latin1.txt"), "latin1.txt")).rejects.toThrow("not a UTF-8 text file");
    await expect(readEditableText(root, "proj")).rejects.toThrow("is a directory");
  });
});
