import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, realpath, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createToolHarness, type ToolHarness } from "../../../tests/support/tool-harness.js";

let base: string;
let work: string;
let harness: ToolHarness;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "marvin-create-file-")));
  work = join(base, "proj");
  await mkdir(work);
  await mkdir(join(base, "outside"));
  harness = await createToolHarness({ home: join(base, "home"), codingMode: true, workingDir: work });
});

afterEach(async () => {
  await harness.close();
  await rm(base, { recursive: true, force: true });
});

describe("create_file", () => {
  it("creates the file and its parent folders with ordinary permissions", async () => {
    const outcome = await harness.call("create_file", { path: "src/deep/util.ts", content: "export const x = 1;\n" });
    expect(outcome).toEqual({ result: "Created src/deep/util.ts (20 bytes, 1 lines).", isError: false });
    expect(await readFile(join(work, "src/deep/util.ts"), "utf8")).toBe("export const x = 1;\n");
    expect((await stat(join(work, "src/deep/util.ts"))).mode & 0o600).toBe(0o600);
  });

  it("refuses to overwrite an existing file and points to apply_patch", async () => {
    await writeFile(join(work, "a.txt"), "keep\nme\n");
    const outcome = await harness.call("create_file", { path: "a.txt", content: "new" });
    expect(outcome.isError).toBe(true);
    expect(outcome.result).toContain("a.txt already exists (2 lines). Use apply_patch");
    expect(await readFile(join(work, "a.txt"), "utf8")).toBe("keep\nme\n");
  });

  it("never creates a file through a symlink, dangling or not, that points outside", async () => {
    await symlink(join(base, "outside", "planted.txt"), join(work, "dangling.txt"));
    await symlink(join(base, "outside"), join(work, "out"));
    for (const path of ["dangling.txt", "out/new.txt", "../outside/new.txt", join(base, "outside", "abs.txt")]) {
      const outcome = await harness.call("create_file", { path, content: "x" });
      expect(outcome.isError, path).toBe(true);
    }
    expect(existsSync(join(base, "outside", "planted.txt"))).toBe(false);
    expect(existsSync(join(base, "outside", "new.txt"))).toBe(false);
    expect(existsSync(join(base, "outside", "abs.txt"))).toBe(false);
  });

  it("blocks .tickets", async () => {
    const outcome = await harness.call("create_file", { path: ".tickets/t-1.md", content: "x" });
    expect(outcome.result).toContain("Use the ticket tools");
    expect(existsSync(join(work, ".tickets"))).toBe(false);
  });
});
