import { mkdir, readdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test as base, describe, expect } from "../../../../tests/support/fixtures.js";
import type { ToolHarness, ToolHarnessOptions } from "../../../../tests/support/tool-harness.js";

const test = base.extend<{
  /** The test's temp folder, holding `home` and `outside`. */
  root: string;
  home: string;
  notes: string;
  /** A folder outside home with a secret in it. */
  outside: string;
  open: (options?: Partial<ToolHarnessOptions>) => Promise<ToolHarness>;
}>({
  root: async ({ tempDirs }, use) => use(await tempDirs.make("marvin-notes-")),
  home: async ({ root }, use) => {
    await mkdir(join(root, "home"));
    await use(join(root, "home"));
  },
  notes: async ({ home }, use) => use(join(home, "Notes")),
  outside: async ({ root }, use) => {
    await mkdir(join(root, "secrets"));
    await writeFile(join(root, "secrets", "secret.txt"), "the password is hunter2\n");
    await use(join(root, "secrets"));
  },
  open: async ({ harnesses, home }, use) => use((options = {}) => harnesses.open({ home, ...options })),
});

describe("notes in ~/Notes (interactive)", () => {
  test("writes, appends, replaces and reads notes, adding .md to bare names", async ({ notes, open }) => {
    const harness = await open();
    expect(await harness.ok("write_note", { path: "shopping", content: "- milk" })).toBe(
      `Saved note shopping.md (6 characters) in ${notes}.`,
    );
    expect(await readFile(join(notes, "shopping.md"), "utf8")).toBe("- milk");
    expect(await harness.ok("write_note", { path: "shopping.md", content: "- eggs\n", append: true })).toContain(
      "Appended 7 characters to shopping.md",
    );
    expect(await harness.ok("read_note", { path: "shopping" })).toBe("- milk\n- eggs\n");
    expect(await harness.ok("write_note", { path: "travel/2026/japan.md", content: "Kyoto\n" })).toContain(
      "Saved note travel/2026/japan.md",
    );
    const replaced = await harness.call("write_note", { path: "shopping", content: "- bread\n" });
    expect(replaced.result).toContain("Replaced note shopping.md");
    expect(replaced.details).toEqual({
      diff: "--- a/shopping.md\n+++ b/shopping.md\n@@ -1,2 +1,1 @@\n-- milk\n-- eggs\n+- bread\n",
    });
    expect(await readFile(join(notes, "shopping.md"), "utf8")).toBe("- bread\n");
  });

  test("keeps a bare name that already exists as it is, and its permissions", async ({ notes, open }) => {
    await mkdir(notes);
    await writeFile(join(notes, "README"), "plain\n", { mode: 0o640 });
    const harness = await open();
    expect(await harness.ok("read_note", { path: "README" })).toBe("plain\n");
    await harness.ok("write_note", { path: "README", content: "updated\n" });
    expect(await readdir(notes)).toEqual(["README"]);
    expect((await stat(join(notes, "README"))).mode & 0o777).toBe(0o640);
  });

  test("lists folders first, makes folders, and explains empty or missing places", async ({ notes, open }) => {
    const harness = await open();
    expect(await harness.ok("notes_ls", {})).toContain("There are no notes yet");
    expect(await harness.failure("read_note", { path: "x" })).toContain(`${notes} does not exist`);
    expect(await harness.ok("notes_mkdir", { path: "projects/garden" })).toBe(
      `Created folder projects/garden/ in ${notes}.`,
    );
    expect(await harness.ok("notes_mkdir", { path: "projects/garden" })).toContain("already exists");
    await harness.ok("write_note", { path: "todo", content: "one\n" });
    expect(await harness.ok("notes_ls", {})).toBe(`${notes} (2 entries):\nprojects/\ntodo.md (4 B)`);
    expect(await harness.ok("notes_ls", { path: "projects/garden" })).toBe(`projects/garden/ in ${notes} is empty.`);
    expect(await harness.failure("notes_ls", { path: "todo.md" })).toContain("is a note, not a folder");
    const missing = await harness.failure("read_note", { path: "nope.md" });
    expect(missing).toContain("No note at nope.md");
    expect(missing).toContain("todo.md");
    expect(await harness.failure("read_note", { path: "projects" })).toContain("is a folder");
  });

  test("searches names and lines case-insensitively, within a subfolder if asked", async ({ notes, open }) => {
    const harness = await open();
    await harness.ok("write_note", {
      path: "recipes/pasta.md",
      content: "# Pasta\nBoil water.\nAdd SALT generously.\n",
    });
    await harness.ok("write_note", { path: "diary.md", content: "Bought salt today.\n" });
    await harness.ok("write_note", { path: "salt-facts.md", content: "Nothing here\n" });
    const found = await harness.ok("search_notes", { query: "salt" });
    expect(found.split("\n")).toEqual([
      `3 matches for "salt" in ${notes}:`,
      "diary.md:1: Bought salt today.",
      "recipes/pasta.md:3: Add SALT generously.",
      "salt-facts.md: (file name matches)",
    ]);
    expect(await harness.ok("search_notes", { query: "salt", path: "recipes" })).toContain("recipes/pasta.md:3:");
    expect(await harness.ok("search_notes", { query: "salt", max_results: 1 })).toContain("more matches not shown");
    expect(await harness.ok("search_notes", { query: "pepper" })).toContain('No notes mention "pepper"');
  });
});

describe("notes in coding mode", () => {
  test("live in <working dir>/.marvin/notes and never touch ~/Notes", async ({ root, notes, open }) => {
    const project = join(root, "project");
    await mkdir(project);
    const harness = await open({ codingMode: true, workingDir: project });
    expect(await harness.ok("write_note", { path: "plan", content: "step 1\n" })).toContain(
      join(project, ".marvin", "notes"),
    );
    expect(await readFile(join(project, ".marvin", "notes", "plan.md"), "utf8")).toBe("step 1\n");
    await expect(stat(notes)).rejects.toThrow();
    expect(await harness.ok("notes_ls", {})).toContain("plan.md");
  });

  test(
    "see one notes folder per call when set_working_dir runs in the same round: the old one or " + "the new one",
    async ({ root, notes, open }) => {
      const project = join(root, "project");
      await mkdir(project);
      const harness = await open({ codingMode: true, workingDir: null });
      const calls: Array<[string, object, string]> = [
        ["write_note", { path: "plan", content: "x" }, `Saved note plan.md (1 characters) in ${notes}.`],
        ["notes_mkdir", { path: "ideas" }, `Created folder ideas/ in ${notes}.`],
        ["notes_ls", {}, `${notes} (2 entries):\nideas/\nplan.md (1 B)`],
        ["read_note", { path: "plan" }, "x"],
      ];
      for (const [tool, args, expected] of calls) {
        harness.session.setWorkingDir(null);
        const [moved, noted] = await Promise.all([
          harness.call("set_working_dir", { path: project }),
          harness.call(tool, args),
        ]);
        expect(moved.isError, moved.result).toBe(false);
        expect(noted, tool).toMatchObject({ isError: false, result: expected });
      }
      expect(harness.session.workingDir).toBe(project);
      expect(await harness.ok("write_note", { path: "later", content: "y" })).toBe(
        `Saved note later.md (1 characters) in ${join(project, ".marvin", "notes")}.`,
      );
    },
  );

  test("fall back to ~/Notes when coding mode has no working dir yet", async ({ notes, open }) => {
    const harness = await open({ codingMode: true, workingDir: null });
    await harness.ok("write_note", { path: "a", content: "x" });
    expect(await readFile(join(notes, "a.md"), "utf8")).toBe("x");
  });
});

describe("notes stay inside the notes folder", () => {
  test("refuses '..', sibling-prefix, absolute and ~ paths, naming the folder and its tree", async ({
    home,
    notes,
    outside,
    open,
  }) => {
    const harness = await open();
    await harness.ok("write_note", { path: "inside.md", content: "ok" });
    await mkdir(join(home, "Notes-evil"));
    for (const path of ["../secrets/secret.txt", "../Notes-evil/x.md", "sub/../../x.md"]) {
      const message = await harness.failure("read_note", { path });
      expect(message).toContain("Path traversal not allowed");
      expect(message).toContain(`Notes folder: ${notes}`);
      expect(message).toContain("inside.md");
    }
    expect(await harness.failure("write_note", { path: join(outside, "new.md"), content: "x" })).toContain(
      "Absolute paths not allowed",
    );
    expect(await harness.failure("write_note", { path: "~/evil.md", content: "x" })).toContain(
      "Absolute paths not allowed",
    );
    expect(await harness.failure("notes_mkdir", { path: "../made" })).toContain("Path traversal not allowed");
    expect(await harness.failure("notes_ls", { path: "/etc" })).toContain("Absolute paths not allowed");
    expect(await readdir(outside)).toEqual(["secret.txt"]);
    await expect(stat(join(home, "made"))).rejects.toThrow();
  });

  test("refuses symlinks that lead out, for reads, writes and searches", async ({ notes, outside, open }) => {
    await mkdir(notes);
    await symlink(outside, join(notes, "linked-dir"));
    await symlink(join(outside, "secret.txt"), join(notes, "linked.md"));
    await symlink(join(outside, "planted.md"), join(notes, "dangling.md"));
    const harness = await open();
    expect(await harness.failure("read_note", { path: "linked.md" })).toContain("points outside");
    expect(await harness.failure("read_note", { path: "linked-dir/secret.txt" })).toContain("points outside");
    expect(await harness.failure("write_note", { path: "linked-dir/new.md", content: "x" })).toContain(
      "points outside",
    );
    expect(await harness.failure("write_note", { path: "dangling.md", content: "x" })).toContain("points outside");
    expect(await harness.failure("write_note", { path: "linked.md", content: "overwritten" })).toContain(
      "points outside",
    );
    expect(await harness.failure("notes_ls", { path: "linked-dir" })).toContain("points outside");
    expect(await harness.failure("search_notes", { query: "password", path: "linked-dir" })).toContain(
      "points outside",
    );
    expect(await harness.ok("search_notes", { query: "password" })).toContain("No notes mention");
    expect(await readdir(outside)).toEqual(["secret.txt"]);
    expect(await readFile(join(outside, "secret.txt"), "utf8")).toBe("the password is hunter2\n");
  });

  test("follows symlinks that stay inside the notes folder", async ({ notes, open }) => {
    await mkdir(join(notes, "real"), { recursive: true });
    await writeFile(join(notes, "real", "a.md"), "inside\n");
    await symlink(join(notes, "real"), join(notes, "alias"));
    const harness = await open();
    expect(await harness.ok("read_note", { path: "alias/a.md" })).toBe("inside\n");
    await harness.ok("write_note", { path: "alias/a.md", content: "changed\n" });
    expect(await readFile(join(notes, "real", "a.md"), "utf8")).toBe("changed\n");
  });
});
