import { existsSync } from "node:fs";
import { readFile, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "../../../../tests/support/file-tool-fixtures.js";

describe("create_file", () => {
  test("creates the file and its parent folders with ordinary permissions", async ({ work, harness }) => {
    const outcome = await harness.call("create_file", { path: "src/deep/util.ts", content: "export const x = 1;\n" });
    expect(outcome).toEqual({
      result: "Created src/deep/util.ts (20 bytes, 1 lines).",
      isError: false,
      details: { diff: "--- /dev/null\n+++ b/src/deep/util.ts\n@@ -0,0 +1,1 @@\n+export const x = 1;\n" },
    });
    expect(await readFile(join(work, "src/deep/util.ts"), "utf8")).toBe("export const x = 1;\n");
    expect((await stat(join(work, "src/deep/util.ts"))).mode & 0o600).toBe(0o600);
  });

  test("refuses to overwrite an existing file and points to apply_patch", async ({ work, harness }) => {
    await writeFile(join(work, "a.txt"), "keep\nme\n");
    const outcome = await harness.call("create_file", { path: "a.txt", content: "new" });
    expect(outcome.isError).toBe(true);
    expect(outcome.result).toContain("a.txt already exists (2 lines). Use apply_patch");
    expect(await readFile(join(work, "a.txt"), "utf8")).toBe("keep\nme\n");
  });

  test("never creates a file through a symlink, dangling or not, that points outside", async ({
    root,
    work,
    harness,
  }) => {
    await symlink(join(root, "outside", "planted.txt"), join(work, "dangling.txt"));
    await symlink(join(root, "outside"), join(work, "out"));
    for (const path of ["dangling.txt", "out/new.txt", "../outside/new.txt", join(root, "outside", "abs.txt")]) {
      const outcome = await harness.call("create_file", { path, content: "x" });
      expect(outcome.isError, path).toBe(true);
    }
    expect(existsSync(join(root, "outside", "planted.txt"))).toBe(false);
    expect(existsSync(join(root, "outside", "new.txt"))).toBe(false);
    expect(existsSync(join(root, "outside", "abs.txt"))).toBe(false);
  });

  test("blocks .tickets", async ({ work, harness }) => {
    const outcome = await harness.call("create_file", { path: ".tickets/t-1.md", content: "x" });
    expect(outcome.result).toContain("Use the ticket tools");
    expect(existsSync(join(work, ".tickets"))).toBe(false);
  });
});
