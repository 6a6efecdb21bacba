import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ToolError } from "../shared/tool-error.js";
import { isInside, resolveInside, treeListing } from "./sandbox.js";

let base: string;
let root: string;
let outside: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "marvin-sandbox-")));
  root = join(base, "proj");
  outside = join(base, "proj-evil");
  await mkdir(join(root, "src"), { recursive: true });
  await mkdir(outside);
  await writeFile(join(root, "src", "main.ts"), "export {};\n");
  await writeFile(join(root, "README.md"), "# proj\n");
  await writeFile(join(outside, "secret.txt"), "secret\n");
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function refusal(requested: string, options?: Parameters<typeof resolveInside>[2]): Promise<string> {
  const error = await resolveInside(root, requested, options).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ToolError);
  return (error as ToolError).message;
}

describe("resolveInside", () => {
  it("returns the real absolute path of files inside the root, existing or not", async () => {
    expect(await resolveInside(root, "src/main.ts")).toBe(join(root, "src", "main.ts"));
    expect(await resolveInside(root, "./src/new/deep.ts", { write: true })).toBe(join(root, "src", "new", "deep.ts"));
    expect(await resolveInside(root, "")).toBe(root);
  });

  it("rejects absolute paths, naming the working dir and listing its tree", async () => {
    const message = await refusal(join(outside, "secret.txt"));
    expect(message).toContain("Absolute paths not allowed");
    expect(message).toContain(`Working dir: ${root}`);
    expect(message).toContain("src/");
    expect(message).toContain("  main.ts");
    expect(message).toContain("README.md");
    expect(await refusal("~/.ssh/id_rsa")).toContain("Absolute paths not allowed");
  });

  it("rejects every '..' segment, even ones that would stay inside", async () => {
    expect(await refusal("../proj-evil/secret.txt")).toContain("Path traversal not allowed");
    expect(await refusal("src/../../proj-evil/secret.txt")).toContain(`Working dir: ${root}`);
    expect(await refusal("src/../README.md")).toContain("Path traversal not allowed");
    expect(await refusal("..\\proj-evil\\secret.txt")).toContain("Path traversal not allowed");
  });

  it("does not mistake a sibling directory sharing the root's prefix for the inside", async () => {
    expect(isInside(root, outside)).toBe(false);
    expect(isInside(root, join(root, "src"))).toBe(true);
    expect(isInside(root, root)).toBe(true);
    await symlink(outside, join(root, "evil"));
    expect(await refusal("evil/secret.txt")).toContain("points outside");
  });

  it("refuses a file symlink that points outside, for reads and writes", async () => {
    await symlink(join(outside, "secret.txt"), join(root, "notes.txt"));
    expect(await refusal("notes.txt")).toContain("symbolic link");
    expect(await refusal("notes.txt", { write: true })).toContain("Cannot write to notes.txt");
  });

  it("refuses a directory symlink that points outside, also for files that do not exist yet", async () => {
    await symlink(outside, join(root, "src", "vendor"));
    expect(await refusal("src/vendor/secret.txt")).toContain("points outside");
    expect(await refusal("src/vendor/new/file.txt", { write: true })).toContain("points outside");
  });

  it("checks afresh on every call, so a directory replaced by a symlink later is caught", async () => {
    expect(await resolveInside(root, "src/main.ts")).toBe(join(root, "src", "main.ts"));
    await rm(join(root, "src"), { recursive: true });
    await symlink(outside, join(root, "src"));
    expect(await refusal("src/secret.txt")).toContain("points outside");
  });

  it("refuses writing through a dangling symlink whose target is outside", async () => {
    await symlink(join(outside, "not-yet.txt"), join(root, "dangling.txt"));
    expect(await refusal("dangling.txt", { write: true })).toContain("points outside");
    await symlink(join(outside, "missing-dir"), join(root, "dangling-dir"));
    expect(await refusal("dangling-dir/file.txt", { write: true })).toContain("points outside");
    await expect(readFile(join(outside, "not-yet.txt"))).rejects.toThrow();
  });

  it("follows symlinks that stay inside to their real target", async () => {
    await symlink("src/main.ts", join(root, "entry.ts"));
    await symlink("src/later.ts", join(root, "later.ts"));
    expect(await resolveInside(root, "entry.ts")).toBe(join(root, "src", "main.ts"));
    expect(await resolveInside(root, "later.ts", { write: true })).toBe(join(root, "src", "later.ts"));
  });

  it("accepts a root reached through a symlink", async () => {
    await symlink(root, join(base, "alias"));
    expect(await resolveInside(join(base, "alias"), "src/main.ts")).toBe(join(root, "src", "main.ts"));
  });

  it("blocks .tickets directly and through a symlink", async () => {
    await mkdir(join(root, ".tickets"));
    const blocked = [".tickets"];
    expect(await refusal(".tickets/abc.md", { blocked })).toContain("ticket tools");
    expect(await refusal("./.tickets", { blocked })).toContain("ticket tools");
    await symlink(".tickets", join(root, "t"));
    expect(await refusal("t/abc.md", { blocked })).toContain("ticket tools");
    expect(await resolveInside(root, ".tickets/abc.md")).toBe(join(root, ".tickets", "abc.md"));
  });

  it("says when the root itself is missing", async () => {
    const error = await resolveInside(join(base, "gone"), "a.txt").catch((caught: unknown) => caught);
    expect((error as ToolError).message).toContain("set_working_dir");
  });
});

describe("treeListing", () => {
  it("caps the listing and says how many entries were left out", async () => {
    for (let index = 0; index < 50; index++)
      await writeFile(join(root, `file-${String(index).padStart(2, "0")}.txt`), "");
    const listing = await treeListing(root);
    expect(listing.split("\n")).toHaveLength(41);
    expect(listing).toMatch(/more entries not shown/);
  });
});
