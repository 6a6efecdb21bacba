import { mkdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test as base, describe, expect } from "../../../../tests/support/fixtures.js";
import type { ToolHarness, ToolHarnessOptions } from "../../../../tests/support/tool-harness.js";

const LIST = "# Groceries\n- milk\n- eggs\n- bread\n- apples\n";

const test = base.extend<{
  /** The test's temp folder, holding `home`. */
  root: string;
  /** Its ~/Notes holds lists/groceries.md (LIST, mode 640). */
  home: string;
  notes: string;
  open: (options?: Partial<ToolHarnessOptions>) => Promise<ToolHarness>;
}>({
  root: async ({ tempDirs }, use) => use(await tempDirs.make("marvin-notes-files-")),
  home: async ({ root }, use) => {
    const home = join(root, "home");
    await mkdir(join(home, "Notes", "lists"), { recursive: true });
    await writeFile(join(home, "Notes", "lists", "groceries.md"), LIST, { mode: 0o640 });
    await use(home);
  },
  notes: async ({ home }, use) => use(join(home, "Notes")),
  open: async ({ harnesses, home }, use) => use((options = {}) => harnesses.open({ home, ...options })),
});

const groceries = (notes: string) => readFile(join(notes, "lists", "groceries.md"), "utf8");

describe("file_read_lines", () => {
  test("numbers lines, whole file or a range", async ({ open }) => {
    const harness = await open();
    expect(await harness.ok("file_read_lines", { path: "lists/groceries.md" })).toBe(
      "lists/groceries.md: lines 1-5 of 5\n1 | # Groceries\n2 | - milk\n3 | - eggs\n4 | - bread\n5 | - apples",
    );
    expect(await harness.ok("file_read_lines", { path: "lists/groceries.md", start: 2, end: 3 })).toBe(
      "lists/groceries.md: lines 2-3 of 5\n2 | - milk\n3 | - eggs",
    );
    expect(await harness.ok("file_read_lines", { path: "lists/groceries.md", start: 4, end: 99 })).toContain(
      "lines 4-5 of 5",
    );
  });

  test("explains bad ranges and missing notes", async ({ open }) => {
    const harness = await open();
    expect(await harness.failure("file_read_lines", { path: "lists/groceries.md", start: 9 })).toContain(
      "start 9 is past the end: lists/groceries.md has 5 lines",
    );
    expect(await harness.failure("file_read_lines", { path: "lists/groceries.md", start: 3, end: 2 })).toContain(
      "end 2 is before start 3",
    );
    expect(await harness.failure("file_read_lines", { path: "lists/groceries.md", start: 0 })).toContain(
      "start must be 1 or more",
    );
    const missing = await harness.failure("file_read_lines", { path: "lists/grocery.md" });
    expect(missing).toContain("No note at lists/grocery.md");
    expect(missing).toContain("groceries.md");
  });

  test("pages through long notes", async ({ notes, open }) => {
    const long = Array.from({ length: 2500 }, (_, index) => `entry ${index + 1}`).join("\n");
    await writeFile(join(notes, "long.md"), long);
    const harness = await open();
    const first = await harness.ok("file_read_lines", { path: "long.md" });
    expect(first).toContain("lines 1-2000 of 2500");
    expect(first).toContain("call again with start=2001");
  });
});

describe("file_apply_patch", () => {
  test("applies a unified diff and shows the changed lines, keeping the file's mode", async ({ notes, open }) => {
    const harness = await open();
    const outcome = await harness.call("file_apply_patch", {
      path: "lists/groceries.md",
      patch: "@@ -2,3 +2,3 @@\n - milk\n-- eggs\n+- a dozen eggs\n - bread\n",
    });
    const output = outcome.result;
    expect(outcome.details).toEqual({
      diff:
        "--- a/lists/groceries.md\n+++ b/lists/groceries.md\n@@ -1,5 +1,5 @@\n # Groceries\n - milk\n-- eggs\n" +
        "+- a dozen eggs\n - bread\n - apples\n",
    });
    expect(output).toContain("Patched lists/groceries.md (1 edit, +3 -3 lines, now 5 lines)");
    expect(output).toContain("3 | - a dozen eggs");
    expect(await groceries(notes)).toBe(LIST.replace("- eggs", "- a dozen eggs"));
    expect((await stat(join(notes, "lists", "groceries.md"))).mode & 0o777).toBe(0o640);
  });

  test("applies line commands", async ({ notes, open }) => {
    const harness = await open();
    const output = await harness.ok("file_apply_patch", {
      path: "lists/groceries.md",
      patch: "DELETE 3\nINSERT AFTER 5\n- pears\nEND\nREPLACE 1\n# Shopping\nEND",
    });
    expect(await groceries(notes)).toBe("# Shopping\n- milk\n- bread\n- apples\n- pears\n");
    expect(output.split("\n").slice(1)).toEqual([
      "1 | # Shopping",
      "2 | - milk",
      "3 | - bread",
      "4 | - apples",
      "5 | - pears",
    ]);
  });

  test("is all or nothing: a failing hunk leaves the note untouched and shows nearby lines", async ({
    notes,
    open,
  }) => {
    const harness = await open();
    const patch = "@@ -2 +2 @@\n-- milk\n+- oat milk\n@@ -5 +5 @@\n-- bananas\n+- plums\n";
    const message = await harness.failure("file_apply_patch", { path: "lists/groceries.md", patch });
    expect(message).toContain("Hunk 2 does not apply");
    expect(message).toContain("Nothing was changed");
    expect(message).toContain("5 | - apples");
    expect(await groceries(notes)).toBe(LIST);
  });

  test("checks without writing on dry_run", async ({ notes, open }) => {
    const harness = await open();
    const output = await harness.ok("file_apply_patch", {
      path: "lists/groceries.md",
      patch: "REPLACE 2\n- cream\nEND",
      dry_run: true,
    });
    expect(output).toContain("Dry run: the patch applies cleanly");
    expect(output).toContain("2 | - cream");
    expect(await groceries(notes)).toBe(LIST);
  });

  test("explains both formats when the patch is neither", async ({ open }) => {
    const harness = await open();
    const message = await harness.failure("file_apply_patch", {
      path: "lists/groceries.md",
      patch: "change eggs to ham",
    });
    expect(message).toContain("neither a unified diff nor line commands");
    expect(message).toContain("REPLACE 3-5");
    expect(message).toContain("@@ -3,2 +3,2 @@");
  });

  test("preserves CRLF line endings", async ({ notes, open }) => {
    await writeFile(join(notes, "crlf.md"), "one\r\ntwo\r\n");
    const harness = await open();
    await harness.ok("file_apply_patch", { path: "crlf.md", patch: "@@ -1,2 +1,3 @@\n one\n+one and a half\n two\n" });
    expect(await readFile(join(notes, "crlf.md"), "utf8")).toBe("one\r\none and a half\r\ntwo\r\n");
  });

  test("is removed in read-only mode", async ({ open }) => {
    const harness = await open({ readonly: true });
    expect(harness.session.toolContext(new AbortController().signal).mode.readonly).toBe(true);
    expect(await harness.failure("file_apply_patch", { path: "lists/groceries.md", patch: "DELETE 1" })).toContain(
      "read-only",
    );
    expect(await harness.ok("file_read_lines", { path: "lists/groceries.md", end: 1 })).toContain("# Groceries");
  });
});

describe("confinement to the notes folder", () => {
  test("refuses paths and symlinks that leave it, for reads and patches", async ({ root, notes, open }) => {
    const outside = join(root, "outside.md");
    await writeFile(outside, "private\n");
    await symlink(outside, join(notes, "link.md"));
    const harness = await open();
    expect(await harness.failure("file_read_lines", { path: "../outside.md" })).toContain("Path traversal not allowed");
    expect(await harness.failure("file_read_lines", { path: outside })).toContain("Absolute paths not allowed");
    expect(await harness.failure("file_read_lines", { path: "link.md" })).toContain("points outside");
    expect(await harness.failure("file_apply_patch", { path: "link.md", patch: "REPLACE 1\npwned\nEND" })).toContain(
      "points outside",
    );
    expect(await readFile(outside, "utf8")).toBe("private\n");
  });

  test("uses <working dir>/.marvin/notes in coding mode", async ({ root, open }) => {
    const project = join(root, "project");
    await mkdir(join(project, ".marvin", "notes"), { recursive: true });
    await writeFile(join(project, ".marvin", "notes", "plan.md"), "step\n");
    const harness = await open({ codingMode: true, workingDir: project });
    expect(await harness.ok("file_read_lines", { path: "plan.md" })).toContain("1 | step");
    expect(await harness.failure("file_read_lines", { path: "lists/groceries.md" })).toContain(
      "No note at lists/groceries.md",
    );
  });
});
