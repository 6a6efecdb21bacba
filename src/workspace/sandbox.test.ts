import { mkdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test as base, describe, expect } from "../../tests/support/fixtures.js";
import { ToolError } from "../shared/tool-error.js";
import { isInside, resolveInside, treeListing } from "./sandbox.js";

const test = base.extend<{
  /** The test's temp folder: proj/ (the working dir) and proj-evil/ (with a secret). */
  parent: string;
  /** The working dir, with src/main.ts and README.md. */
  root: string;
  outside: string;
  /** The message with which resolving `requested` inside `root` is refused. */
  refusal: (requested: string, options?: Parameters<typeof resolveInside>[2]) => Promise<string>;
}>({
  parent: async ({ tempDirs }, use) => {
    const parent = await tempDirs.make("marvin-sandbox-");
    await mkdir(join(parent, "proj-evil"));
    await writeFile(join(parent, "proj-evil", "secret.txt"), "secret\n");
    await use(parent);
  },
  root: async ({ parent }, use) => {
    const root = join(parent, "proj");
    await mkdir(join(root, "src"), { recursive: true });
    await writeFile(join(root, "src", "main.ts"), "export {};\n");
    await writeFile(join(root, "README.md"), "# proj\n");
    await use(root);
  },
  outside: async ({ parent }, use) => use(join(parent, "proj-evil")),
  refusal: async ({ root }, use) =>
    use(async (requested, options) => {
      const error = await resolveInside(root, requested, options).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(ToolError);
      return (error as ToolError).message;
    }),
});

describe("resolveInside", () => {
  test("returns the real absolute path of files inside the root, existing or not", async ({ root }) => {
    expect(await resolveInside(root, "src/main.ts")).toBe(join(root, "src", "main.ts"));
    expect(await resolveInside(root, "./src/new/deep.ts", { write: true })).toBe(join(root, "src", "new", "deep.ts"));
    expect(await resolveInside(root, "")).toBe(root);
  });

  test("rejects absolute paths, naming the working dir and listing its tree", async ({ root, outside, refusal }) => {
    const message = await refusal(join(outside, "secret.txt"));
    expect(message).toContain("Absolute paths not allowed");
    expect(message).toContain(`Working dir: ${root}`);
    expect(message).toContain("src/");
    expect(message).toContain("  main.ts");
    expect(message).toContain("README.md");
    expect(await refusal("~/.ssh/id_rsa")).toContain("Absolute paths not allowed");
  });

  test("rejects every '..' segment, even ones that would stay inside", async ({ root, refusal }) => {
    expect(await refusal("../proj-evil/secret.txt")).toContain("Path traversal not allowed");
    expect(await refusal("src/../../proj-evil/secret.txt")).toContain(`Working dir: ${root}`);
    expect(await refusal("src/../README.md")).toContain("Path traversal not allowed");
    expect(await refusal("..\\proj-evil\\secret.txt")).toContain("Path traversal not allowed");
  });

  test("does not mistake a sibling directory sharing the root's prefix for the inside", async ({
    root,
    outside,
    refusal,
  }) => {
    expect(isInside(root, outside)).toBe(false);
    expect(isInside(root, join(root, "src"))).toBe(true);
    expect(isInside(root, root)).toBe(true);
    await symlink(outside, join(root, "evil"));
    expect(await refusal("evil/secret.txt")).toContain("points outside");
  });

  test("refuses a file symlink that points outside, for reads and writes", async ({ root, outside, refusal }) => {
    await symlink(join(outside, "secret.txt"), join(root, "notes.txt"));
    expect(await refusal("notes.txt")).toContain("symbolic link");
    expect(await refusal("notes.txt", { write: true })).toContain("Cannot write to notes.txt");
  });

  test("refuses a directory symlink that points outside, also for files that do not exist yet", async ({
    root,
    outside,
    refusal,
  }) => {
    await symlink(outside, join(root, "src", "vendor"));
    expect(await refusal("src/vendor/secret.txt")).toContain("points outside");
    expect(await refusal("src/vendor/new/file.txt", { write: true })).toContain("points outside");
  });

  test("checks afresh on every call, so a directory replaced by a symlink later is caught", async ({
    root,
    outside,
    refusal,
  }) => {
    expect(await resolveInside(root, "src/main.ts")).toBe(join(root, "src", "main.ts"));
    await rm(join(root, "src"), { recursive: true });
    await symlink(outside, join(root, "src"));
    expect(await refusal("src/secret.txt")).toContain("points outside");
  });

  test("refuses writing through a dangling symlink whose target is outside", async ({ root, outside, refusal }) => {
    await symlink(join(outside, "not-yet.txt"), join(root, "dangling.txt"));
    expect(await refusal("dangling.txt", { write: true })).toContain("points outside");
    await symlink(join(outside, "missing-dir"), join(root, "dangling-dir"));
    expect(await refusal("dangling-dir/file.txt", { write: true })).toContain("points outside");
    await expect(readFile(join(outside, "not-yet.txt"))).rejects.toThrow();
  });

  test("follows symlinks that stay inside to their real target", async ({ root }) => {
    await symlink("src/main.ts", join(root, "entry.ts"));
    await symlink("src/later.ts", join(root, "later.ts"));
    expect(await resolveInside(root, "entry.ts")).toBe(join(root, "src", "main.ts"));
    expect(await resolveInside(root, "later.ts", { write: true })).toBe(join(root, "src", "later.ts"));
  });

  test("accepts a root reached through a symlink", async ({ parent, root }) => {
    await symlink(root, join(parent, "alias"));
    expect(await resolveInside(join(parent, "alias"), "src/main.ts")).toBe(join(root, "src", "main.ts"));
  });

  test("blocks .tickets directly and through a symlink", async ({ root, refusal }) => {
    await mkdir(join(root, ".tickets"));
    const blocked = [".tickets"];
    expect(await refusal(".tickets/abc.md", { blocked })).toContain("ticket tools");
    expect(await refusal("./.tickets", { blocked })).toContain("ticket tools");
    await symlink(".tickets", join(root, "t"));
    expect(await refusal("t/abc.md", { blocked })).toContain("ticket tools");
    expect(await resolveInside(root, ".tickets/abc.md")).toBe(join(root, ".tickets", "abc.md"));
  });

  test("says when the root itself is missing", async ({ parent }) => {
    const error = await resolveInside(join(parent, "gone"), "a.txt").catch((caught: unknown) => caught);
    expect((error as ToolError).message).toContain("set_working_dir");
  });
});

describe("treeListing", () => {
  test("caps the listing and says how many entries were left out", async ({ root }) => {
    for (let index = 0; index < 50; index++)
      await writeFile(join(root, `file-${String(index).padStart(2, "0")}.txt`), "");
    const listing = await treeListing(root);
    expect(listing.split("\n")).toHaveLength(41);
    expect(listing).toMatch(/more entries not shown/);
  });
});
