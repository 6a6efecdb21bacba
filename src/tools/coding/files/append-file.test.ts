import { link, mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "../../../../tests/support/file-tool-fixtures.js";

describe("append_file", () => {
  test("appends to an existing file and reports the new size", async ({ work, harness }) => {
    await writeFile(join(work, "doc.md"), "# Part 1\n");
    const outcome = await harness.call("append_file", { path: "doc.md", content: "# Part 2\n" });
    expect(outcome).toEqual({
      result: "Appended 9 bytes to doc.md (now 18 bytes).",
      isError: false,
      details: { diff: "--- a/doc.md\n+++ b/doc.md\n@@ -1,1 +1,2 @@\n # Part 1\n+# Part 2\n" },
    });
    expect(await readFile(join(work, "doc.md"), "utf8")).toBe("# Part 1\n# Part 2\n");
  });

  test("a new file's diff adds every line", async ({ harness }) => {
    const outcome = await harness.call("append_file", { path: "log.txt", content: "one\n" });
    expect(outcome.details).toEqual({ diff: "--- /dev/null\n+++ b/log.txt\n@@ -0,0 +1,1 @@\n+one\n" });
  });

  test("creates a missing file, and warns when the file did not end with a newline", async ({ work, harness }) => {
    expect((await harness.call("append_file", { path: "notes/log.txt", content: "first" })).result).toBe(
      "Created notes/log.txt with 5 bytes.",
    );
    const outcome = await harness.call("append_file", { path: "notes/log.txt", content: " second\n" });
    expect(outcome.result).toContain("did not end with a newline");
    expect(await readFile(join(work, "notes/log.txt"), "utf8")).toBe("first second\n");
  });

  test("never appends through a symlink that points outside", async ({ root, work, harness }) => {
    await writeFile(join(root, "outside", "victim.txt"), "safe\n");
    await symlink(join(root, "outside", "victim.txt"), join(work, "victim.txt"));
    const outcome = await harness.call("append_file", { path: "victim.txt", content: "pwned\n" });
    expect(outcome.isError).toBe(true);
    expect(outcome.result).toContain("points outside");
    expect(await readFile(join(root, "outside", "victim.txt"), "utf8")).toBe("safe\n");
  });

  test("does not append to a file outside through a hard link", async ({ root, work, harness }) => {
    await writeFile(join(root, "outside", "shared.txt"), "outside\n");
    await link(join(root, "outside", "shared.txt"), join(work, "shared.txt"));
    const outcome = await harness.call("append_file", { path: "shared.txt", content: "more\n" });
    expect(outcome.result).toBe("Appended 5 bytes to shared.txt (now 13 bytes).");
    expect(await readFile(join(work, "shared.txt"), "utf8")).toBe("outside\nmore\n");
    expect(await readFile(join(root, "outside", "shared.txt"), "utf8")).toBe("outside\n");
  });

  test("refuses a directory", async ({ work, harness }) => {
    await mkdir(join(work, "dir"));
    expect((await harness.call("append_file", { path: "dir", content: "x" })).result).toContain("dir is a directory");
  });
});
