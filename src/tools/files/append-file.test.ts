import { link, mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createToolHarness, type ToolHarness } from "../../../tests/support/tool-harness.js";

let base: string;
let work: string;
let harness: ToolHarness;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "marvin-append-file-")));
  work = join(base, "proj");
  await mkdir(work);
  await mkdir(join(base, "outside"));
  harness = await createToolHarness({ home: join(base, "home"), codingMode: true, workingDir: work });
});

afterEach(async () => {
  await harness.close();
  await rm(base, { recursive: true, force: true });
});

describe("append_file", () => {
  it("appends to an existing file and reports the new size", async () => {
    await writeFile(join(work, "doc.md"), "# Part 1\n");
    const outcome = await harness.call("append_file", { path: "doc.md", content: "# Part 2\n" });
    expect(outcome).toEqual({ result: "Appended 9 bytes to doc.md (now 18 bytes).", isError: false });
    expect(await readFile(join(work, "doc.md"), "utf8")).toBe("# Part 1\n# Part 2\n");
  });

  it("creates a missing file, and warns when the file did not end with a newline", async () => {
    expect((await harness.call("append_file", { path: "notes/log.txt", content: "first" })).result).toBe(
      "Created notes/log.txt with 5 bytes.",
    );
    const outcome = await harness.call("append_file", { path: "notes/log.txt", content: " second\n" });
    expect(outcome.result).toContain("did not end with a newline");
    expect(await readFile(join(work, "notes/log.txt"), "utf8")).toBe("first second\n");
  });

  it("never appends through a symlink that points outside", async () => {
    await writeFile(join(base, "outside", "victim.txt"), "safe\n");
    await symlink(join(base, "outside", "victim.txt"), join(work, "victim.txt"));
    const outcome = await harness.call("append_file", { path: "victim.txt", content: "pwned\n" });
    expect(outcome.isError).toBe(true);
    expect(outcome.result).toContain("points outside");
    expect(await readFile(join(base, "outside", "victim.txt"), "utf8")).toBe("safe\n");
  });

  it("does not append to a file outside through a hard link", async () => {
    await writeFile(join(base, "outside", "shared.txt"), "outside\n");
    await link(join(base, "outside", "shared.txt"), join(work, "shared.txt"));
    const outcome = await harness.call("append_file", { path: "shared.txt", content: "more\n" });
    expect(outcome.result).toBe("Appended 5 bytes to shared.txt (now 13 bytes).");
    expect(await readFile(join(work, "shared.txt"), "utf8")).toBe("outside\nmore\n");
    expect(await readFile(join(base, "outside", "shared.txt"), "utf8")).toBe("outside\n");
  });

  it("refuses a directory", async () => {
    await mkdir(join(work, "dir"));
    expect((await harness.call("append_file", { path: "dir", content: "x" })).result).toContain("dir is a directory");
  });
});
