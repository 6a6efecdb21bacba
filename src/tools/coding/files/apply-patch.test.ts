import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test as base, describe, expect } from "../../../../tests/support/fixtures.js";
import { createToolHarness, type ToolHarness } from "../../../../tests/support/tool-harness.js";

const test = base.extend<{
  /** The test's temp folder: home/, proj/ (the working dir, with src/) and proj-evil/ (with a secret). */
  root: string;
  work: string;
  outside: string;
  /** A coding session in `work`. */
  harness: ToolHarness;
  /** Reads a file of `work`. */
  read: (path: string) => Promise<string>;
}>({
  root: async ({ tempDirs }, use) => use(await tempDirs.make("marvin-apply-patch-")),
  work: async ({ root }, use) => {
    await mkdir(join(root, "proj", "src"), { recursive: true });
    await use(join(root, "proj"));
  },
  outside: async ({ root }, use) => {
    await mkdir(join(root, "proj-evil"));
    await writeFile(join(root, "proj-evil", "secret.txt"), "secret\n");
    await use(join(root, "proj-evil"));
  },
  harness: async ({ harnesses, root, work, outside: _ }, use) =>
    use(await harnesses.open({ home: join(root, "home"), codingMode: true, workingDir: work })),
  read: async ({ work }, use) => use((path) => readFile(join(work, path), "utf8")),
});

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

describe("apply_patch with old_str/new_str", () => {
  test("replaces the single occurrence and shows the changed lines", async ({ work, harness, read }) => {
    await writeFile(join(work, "src/a.ts"), "const a = 1;\nconst b = 2;\nconst c = 3;\n");
    const outcome = await harness.call("apply_patch", {
      path: "src/a.ts",
      old_str: "const b = 2;",
      new_str: "const b = 20;\nconst bb = 21;",
    });
    expect(outcome.isError).toBe(false);
    expect(await read("src/a.ts")).toBe("const a = 1;\nconst b = 20;\nconst bb = 21;\nconst c = 3;\n");
    expect(outcome.result).toContain("Patched src/a.ts: replaced 1 line(s) with 2 at line 2.");
    expect(outcome.result).toContain("3 | const bb = 21;");
    expect(outcome.details).toEqual({
      diff:
        "--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,3 +1,4 @@\n const a = 1;\n-const b = 2;\n+const b = 20;\n" +
        "+const bb = 21;\n const c = 3;\n",
    });
    expect(outcome.result).not.toContain("+++");
  });

  test("diffs an edit deep in a large file as diff -u does, line numbers counted from the top", async ({
    work,
    harness,
  }) => {
    const lines = Array.from({ length: 2_000 }, (_, index) => `line ${index + 1}\n`);
    await writeFile(join(work, "big.txt"), `${lines.join("")}last line, no newline`);
    const middle = await harness.call("apply_patch", {
      path: "big.txt",
      old_str: "line 1500\n",
      new_str: "line 1500!\n",
    });
    expect(middle.details).toEqual({
      diff:
        "--- a/big.txt\n+++ b/big.txt\n@@ -1497,7 +1497,7 @@\n line 1497\n line 1498\n line 1499\n-line 1500\n" +
        "+line 1500!\n line 1501\n line 1502\n line 1503\n",
    });
    const nearEnd = await harness.call("apply_patch", { path: "big.txt", old_str: "no newline", new_str: "ends here" });
    const deep = (await harness.call("apply_patch", { path: "big.txt", old_str: "line 3\n", new_str: "" })).details;
    expect(deep).toEqual({
      diff: "--- a/big.txt\n+++ b/big.txt\n@@ -1,6 +1,5 @@\n line 1\n line 2\n-line 3\n line 4\n line 5\n line 6\n",
    });
    expect(nearEnd.details).toEqual({
      diff:
        "--- a/big.txt\n+++ b/big.txt\n@@ -1998,4 +1998,4 @@\n line 1998\n line 1999\n line 2000\n" +
        "-last line, no newline\n\\ No newline at end of file\n+last line, ends here\n\\ No newline at end of file\n",
    });
  });

  test("diffs one edit of a file larger than the blocks it is compared in", async ({ work, harness }) => {
    const lines = Array.from({ length: 20_000 }, (_, index) => `line ${index + 1}\n`);
    await writeFile(join(work, "big.txt"), lines.join(""));
    const outcome = await harness.call("apply_patch", { path: "big.txt", old_str: "line 15000\n", new_str: "" });
    expect(outcome.details).toEqual({
      diff:
        "--- a/big.txt\n+++ b/big.txt\n@@ -14997,7 +14997,6 @@\n line 14997\n line 14998\n line 14999\n" +
        "-line 15000\n line 15001\n line 15002\n line 15003\n",
    });
  });

  test("shows the nearest lines with numbers when old_str is not found, and changes nothing", async ({
    work,
    harness,
    read,
  }) => {
    const original = "function price(item) {\n  return item.cost * 1.2;\n}\n";
    await writeFile(join(work, "src/p.js"), original);
    const outcome = await harness.call("apply_patch", {
      path: "src/p.js",
      old_str: "  return item.costs * 1.2;",
      new_str: "  return 0;",
    });
    expect(outcome.isError).toBe(true);
    expect(outcome.result).toContain("old_str was not found in src/p.js");
    expect(outcome.result).toContain("2 |   return item.cost * 1.2;");
    expect(await read("src/p.js")).toBe(original);
  });

  test("says how many times and at which lines old_str matches when it is not unique", async ({
    work,
    harness,
    read,
  }) => {
    await writeFile(join(work, "x.py"), "x = 0\npass\ny = 1\npass\nz = 2\npass\n");
    const outcome = await harness.call("apply_patch", { path: "x.py", old_str: "pass", new_str: "return" });
    expect(outcome.isError).toBe(true);
    expect(outcome.result).toContain("old_str matches 3 times in x.py, at lines 2, 4, 6");
    expect(await read("x.py")).toBe("x = 0\npass\ny = 1\npass\nz = 2\npass\n");
  });

  test("edits a CRLF file with LF strings and keeps it CRLF", async ({ work, harness, read }) => {
    await writeFile(join(work, "win.txt"), "one\r\ntwo\r\nthree\r\n");
    const outcome = await harness.call("apply_patch", {
      path: "win.txt",
      old_str: "one\ntwo",
      new_str: "ONE\nTWO\nextra",
    });
    expect(outcome.isError).toBe(false);
    expect(await read("win.txt")).toBe("ONE\r\nTWO\r\nextra\r\nthree\r\n");
  });

  test("keeps the mode of an existing file", async ({ work, harness, read }) => {
    await writeFile(join(work, "run.sh"), "#!/bin/sh\necho hi\n");
    await chmod(join(work, "run.sh"), 0o755);
    await harness.call("apply_patch", { path: "run.sh", old_str: "echo hi", new_str: "echo bye" });
    expect((await stat(join(work, "run.sh"))).mode & 0o777).toBe(0o755);
    expect(await read("run.sh")).toBe("#!/bin/sh\necho bye\n");
  });

  test("creates a missing file from an empty old_str but refuses an empty old_str on a file with content", async ({
    harness,
    read,
  }) => {
    const created = await harness.call("apply_patch", { path: "new/file.md", new_str: "# New\n" });
    expect(created.result).toContain("Created new/file.md");
    expect(created.details).toEqual({ diff: "--- /dev/null\n+++ b/new/file.md\n@@ -0,0 +1,1 @@\n+# New\n" });
    expect(await read("new/file.md")).toBe("# New\n");
    const refused = await harness.call("apply_patch", { path: "new/file.md", new_str: "other\n" });
    expect(refused.isError).toBe(true);
    expect(refused.result).toContain("old_str is empty but new/file.md already has 1 lines");
  });

  test("suggests near names when the file does not exist", async ({ work, harness }) => {
    await writeFile(join(work, "src/main.ts"), "x\n");
    const outcome = await harness.call("apply_patch", { path: "src/mian.ts", old_str: "x", new_str: "y" });
    expect(outcome.isError).toBe(true);
    expect(outcome.result).toContain("src/mian.ts does not exist. Did you mean: src/main.ts?");
  });

  test("refuses paths outside the working dir and writes through an outside symlink", async ({
    work,
    outside,
    harness,
  }) => {
    await symlink(join(outside, "secret.txt"), join(work, "link.txt"));
    const absolute = await harness.call("apply_patch", {
      path: join(outside, "secret.txt"),
      old_str: "secret",
      new_str: "pwned",
    });
    expect(absolute.result).toContain("Absolute paths not allowed");
    const linked = await harness.call("apply_patch", { path: "link.txt", old_str: "secret", new_str: "pwned" });
    expect(linked.result).toContain("points outside");
    expect(await readFile(join(outside, "secret.txt"), "utf8")).toBe("secret\n");
  });

  test("needs a path unless a Codex patch is given", async ({ harness }) => {
    const outcome = await harness.call("apply_patch", { old_str: "a", new_str: "b" });
    expect(outcome.isError).toBe(true);
    expect(outcome.result).toContain("path is required");
  });
});

describe("apply_patch with a Codex patch", () => {
  test("applies several files in one patch, including an add followed by an update of the same file", async ({
    work,
    harness,
    read,
  }) => {
    await writeFile(join(work, "src/a.txt"), "alpha\n");
    const outcome = await harness.call("apply_patch", {
      patch: patch(
        "*** Add File: docs/b.md",
        "+bee",
        "*** Update File: docs/b.md",
        "@@",
        "-bee",
        "+BEE",
        "*** Update File: src/a.txt",
        "@@",
        "-alpha",
        "+ALPHA",
      ),
    });
    expect(outcome.result).toBe("Success. Updated the following files:\nA docs/b.md\nM docs/b.md\nM src/a.txt");
    expect(await read("docs/b.md")).toBe("BEE\n");
    expect(await read("src/a.txt")).toBe("ALPHA\n");
    expect(outcome.details).toEqual({
      diff:
        "--- /dev/null\n+++ b/docs/b.md\n@@ -0,0 +1,1 @@\n+BEE\n" +
        "--- a/src/a.txt\n+++ b/src/a.txt\n@@ -1,1 +1,1 @@\n-alpha\n+ALPHA\n",
    });
  });

  test("its diff shows a moved file as deleted and added, and a deleted file's lines removed", async ({
    work,
    harness,
    read,
  }) => {
    await writeFile(join(work, "src/old.txt"), "one\n");
    await writeFile(join(work, "src/gone.txt"), "bye\n");
    const outcome = await harness.call("apply_patch", {
      patch: patch(
        "*** Update File: src/old.txt",
        "*** Move to: src/new.txt",
        "@@",
        "-one",
        "+uno",
        "*** Delete File: src/gone.txt",
      ),
    });
    expect(await read("src/new.txt")).toBe("uno\n");
    expect(outcome.details).toEqual({
      diff:
        "--- /dev/null\n+++ b/src/new.txt\n@@ -0,0 +1,1 @@\n+uno\n" +
        "--- a/src/old.txt\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-one\n" +
        "--- a/src/gone.txt\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-bye\n",
    });
  });

  test("leaves every file untouched when a later operation fails, naming the operation", async ({
    work,
    harness,
    read,
  }) => {
    await writeFile(join(work, "a.txt"), "one\n");
    await writeFile(join(work, "b.txt"), "two\n");
    const outcome = await harness.call(
      "apply_patch",
      patch(
        "*** Update File: a.txt",
        "@@",
        "-one",
        "+ONE",
        "*** Delete File: b.txt",
        "*** Update File: b.txt",
        "@@",
        "-two",
        "+TWO",
      ),
    );
    expect(outcome.isError).toBe(true);
    expect(outcome.result).toContain("Operation 3 of 3 (Update File: b.txt) failed: b.txt does not exist");
    expect(await read("a.txt")).toBe("one\n");
    expect(await read("b.txt")).toBe("two\n");
  });

  test("restores the files already written when a write fails half way", async ({ work, harness, read }) => {
    await writeFile(join(work, "a.txt"), "one\n");
    await writeFile(join(work, "blocker"), "I am a file, not a folder\n");
    const outcome = await harness.call(
      "apply_patch",
      patch("*** Update File: a.txt", "@@", "-one", "+ONE", "*** Add File: blocker/new.txt", "+x"),
    );
    expect(outcome.isError).toBe(true);
    expect(outcome.result).toContain("Writing blocker/new.txt failed");
    expect(outcome.result).toContain("nothing was changed");
    expect(await read("a.txt")).toBe("one\n");
  });

  test("refuses operations that leave the sandbox or touch .tickets, before writing anything", async ({
    work,
    outside,
    harness,
    read,
  }) => {
    await writeFile(join(work, "a.txt"), "one\n");
    await symlink(outside, join(work, "vendor"));
    const cases: Array<[string, string]> = [
      [
        patch("*** Update File: a.txt", "*** Move to: ../proj-evil/a.txt", "@@", "-one", "+ONE"),
        "Path traversal not allowed",
      ],
      [patch("*** Add File: a2.txt", "+x", "*** Add File: vendor/dropped.txt", "+x"), "points outside"],
      [patch("*** Delete File: vendor/secret.txt"), "points outside"],
      [patch("*** Add File: .tickets/t-1.md", "+x"), "ticket tools"],
    ];
    for (const [text, message] of cases) {
      const outcome = await harness.call("apply_patch", text);
      expect(outcome.isError, text).toBe(true);
      expect(outcome.result).toContain(message);
    }
    expect(await read("a.txt")).toBe("one\n");
    expect(existsSync(join(work, "a2.txt"))).toBe(false);
    expect(existsSync(join(work, ".tickets"))).toBe(false);
    expect(await readFile(join(outside, "secret.txt"), "utf8")).toBe("secret\n");
    expect(existsSync(join(outside, "dropped.txt"))).toBe(false);
  });

  test("deletes a symlink itself, never the file it points to", async ({ work, harness, read }) => {
    await writeFile(join(work, "real.txt"), "keep\n");
    await symlink("real.txt", join(work, "alias.txt"));
    const outcome = await harness.call("apply_patch", patch("*** Delete File: alias.txt"));
    expect(outcome.result).toBe("Success. Updated the following files:\nD alias.txt");
    expect(existsSync(join(work, "alias.txt"))).toBe(false);
    expect(await read("real.txt")).toBe("keep\n");
  });

  test("explains the accepted formats when sent a unified diff", async ({ harness }) => {
    const outcome = await harness.call("apply_patch", "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+ONE\n");
    expect(outcome.isError).toBe(true);
    expect(outcome.result).toContain("does not take unified diffs");
    expect(outcome.result).toContain("*** Begin Patch");
    const inField = await harness.call("apply_patch", {
      path: "a.txt",
      patch: "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+ONE\n",
    });
    expect(inField.result).toContain("does not take unified diffs");
    expect((await harness.call("apply_patch", { input: "please change a.txt" })).result).toContain(
      "must hold a Codex patch",
    );
  });

  test("is refused outside coding mode and for read-only agents", async ({ root, work }) => {
    const plain = await createToolHarness({ home: join(root, "home2"), codingMode: false, workingDir: work });
    const readonly = await createToolHarness({
      home: join(root, "home3"),
      codingMode: true,
      readonly: true,
      workingDir: work,
    });
    try {
      expect((await plain.call("apply_patch", { path: "a", new_str: "x" })).result).toContain(
        "only available in coding mode",
      );
      expect((await readonly.call("apply_patch", { path: "a", new_str: "x" })).result).toContain("read-only agent");
      expect(existsSync(join(work, "a"))).toBe(false);
    } finally {
      await plain.close();
      await readonly.close();
    }
  });
});
