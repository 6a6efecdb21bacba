import { execFileSync } from "node:child_process";
import { lstat, mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test as base, describe, expect } from "../../../../tests/support/fixtures.js";
import type { ToolHarness } from "../../../../tests/support/tool-harness.js";

// FIFOs made with mkfifo, as run_command could make them mid-session: opening one for reading
// blocks until a writer comes, which would hang the tool and keep the process alive after the run.
// Every file tool refuses (or skips) anything that is not a regular file, without opening it.

const FIFO_REFUSAL = "is a named pipe (FIFO), not a regular file";
const mkfifo = (path: string) => execFileSync("mkfifo", [path]);

const test = base.extend<{
  /** A project with src/main.ts, .marvin/notes/plan.md, and a FIFO next to each. */
  project: string;
  notes: string;
  /** A coding session in `project`. */
  harness: ToolHarness;
}>({
  project: async ({ workspace }, use) => {
    const notes = join(workspace, ".marvin", "notes");
    await mkdir(join(workspace, "src"), { recursive: true });
    await mkdir(notes, { recursive: true });
    await writeFile(join(workspace, "src", "main.ts"), "export {};\n");
    await writeFile(join(notes, "plan.md"), "step one\n");
    mkfifo(join(workspace, "src", "pipe.ts"));
    mkfifo(join(notes, "pipe.md"));
    await use(workspace);
  },
  notes: async ({ project }, use) => use(join(project, ".marvin", "notes")),
  harness: async ({ harnesses, home, project }, use) =>
    use(await harnesses.open({ home, codingMode: true, workingDir: project })),
});

const stillAFifo = async (path: string) => expect((await lstat(path)).isFIFO()).toBe(true);

describe("file tools and FIFOs", () => {
  test("read_file refuses a FIFO, with or without a line range", async ({ harness }) => {
    expect(await harness.failure("read_file", { path: "src/pipe.ts" })).toContain(`src/pipe.ts ${FIFO_REFUSAL}`);
    expect(await harness.failure("read_file", { path: "src/pipe.ts", start_line: 1, end_line: 5 })).toContain(
      FIFO_REFUSAL,
    );
  });

  test("create_file says a FIFO is in the way instead of reading it", async ({ project, harness }) => {
    expect(await harness.failure("create_file", { path: "src/pipe.ts", content: "x" })).toContain(
      "src/pipe.ts already exists and is a named pipe (FIFO), not a regular file",
    );
    await stillAFifo(join(project, "src", "pipe.ts"));
  });

  test("append_file refuses a FIFO", async ({ project, harness }) => {
    expect(await harness.failure("append_file", { path: "src/pipe.ts", content: "x\n" })).toContain(FIFO_REFUSAL);
    await stillAFifo(join(project, "src", "pipe.ts"));
  });

  test("apply_patch refuses a FIFO, with old_str/new_str and in a Codex patch (update, add, delete)", async ({
    project,
    harness,
  }) => {
    expect(await harness.failure("apply_patch", { path: "src/pipe.ts", old_str: "a", new_str: "b" })).toContain(
      FIFO_REFUSAL,
    );
    expect(await harness.failure("apply_patch", { path: "src/pipe.ts", old_str: "", new_str: "b" })).toContain(
      FIFO_REFUSAL,
    );
    for (const operation of [
      "*** Update File: src/pipe.ts\n@@\n-a\n+b",
      "*** Add File: src/pipe.ts\n+b",
      "*** Delete File: src/pipe.ts",
    ]) {
      const message = await harness.failure("apply_patch", { patch: `*** Begin Patch\n${operation}\n*** End Patch` });
      expect(message).toContain(FIFO_REFUSAL);
      expect(message).toContain("No files were modified");
    }
    await stillAFifo(join(project, "src", "pipe.ts"));
  });
});

describe("notes tools and FIFOs (coding mode: notes in the working dir's .marvin/notes)", () => {
  test("read_note, file_read_lines and file_apply_patch refuse a FIFO", async ({ harness }) => {
    expect(await harness.failure("read_note", { path: "pipe.md" })).toContain(`pipe.md ${FIFO_REFUSAL}`);
    expect(await harness.failure("file_read_lines", { path: "pipe.md" })).toContain(FIFO_REFUSAL);
    expect(await harness.failure("file_apply_patch", { path: "pipe.md", patch: "DELETE 1" })).toContain(FIFO_REFUSAL);
  });

  test("write_note neither replaces nor appends to a FIFO", async ({ notes, harness }) => {
    expect(await harness.failure("write_note", { path: "pipe.md", content: "x" })).toContain("not a regular file");
    expect(await harness.failure("write_note", { path: "pipe.md", content: "x", append: true })).toContain(
      "not a regular file",
    );
    await stillAFifo(join(notes, "pipe.md"));
  });

  test("search_notes and notes_ls skip a FIFO and finish", async ({ notes, harness }) => {
    expect(await harness.ok("search_notes", { query: "step" })).toContain("plan.md:1: step one");
    expect(await harness.ok("notes_ls", {})).toContain("pipe.md");
    expect((await readdir(notes)).sort()).toEqual(["pipe.md", "plan.md"]);
  });
});
