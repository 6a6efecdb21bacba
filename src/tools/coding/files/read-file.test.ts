import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test as base, describe, expect } from "../../../../tests/support/fixtures.js";
import { createTestSession, registryOf } from "../../../../tests/support/test-session.js";
import { createToolHarness, type ToolHarness } from "../../../../tests/support/tool-harness.js";
import { ContextBudget } from "../../../agent/context-budget.js";
import { fileTools } from "./index.js";

const test = base.extend<{
  /** The test's temp folder: home/ and proj/ (the working dir, with src/main.ts of five lines). */
  root: string;
  work: string;
  /** A coding session in `work`. */
  harness: ToolHarness;
}>({
  root: async ({ tempDirs }, use) => use(await tempDirs.make("marvin-read-file-")),
  work: async ({ root }, use) => {
    const work = join(root, "proj");
    await mkdir(join(work, "src"), { recursive: true });
    await writeFile(join(work, "src", "main.ts"), "line one\nline two\nline three\nline four\nline five\n");
    await use(work);
  },
  harness: async ({ harnesses, root, work }, use) =>
    use(await harnesses.open({ home: join(root, "home"), codingMode: true, workingDir: work })),
});

describe("read_file", () => {
  test("returns a small file whole", async ({ harness }) => {
    const outcome = await harness.call("read_file", { path: "src/main.ts" });
    expect(outcome).toEqual({ result: "line one\nline two\nline three\nline four\nline five\n", isError: false });
  });

  test("returns numbered lines for a range and says which part of the file it is", async ({ harness }) => {
    const outcome = await harness.call("read_file", { path: "src/main.ts", start_line: 2, end_line: "3" });
    expect(outcome.result).toBe("2. line two\n3. line three\n\n[Lines 2-3 of 5.]");
    expect((await harness.call("read_file", { path: "src/main.ts", start_line: 4 })).result).toBe(
      "4. line four\n5. line five\n\n[Lines 4-5 of 5.]",
    );
  });

  test("refuses a file over 10KB without a range, giving the line count and example calls", async ({
    work,
    harness,
  }) => {
    await writeFile(
      join(work, "big.log"),
      `${Array.from({ length: 600 }, (_, index) => `entry ${index} ${"x".repeat(20)}`).join("\n")}\n`,
    );
    const outcome = await harness.call("read_file", { path: "big.log" });
    expect(outcome.isError).toBe(true);
    expect(outcome.result).toContain("(600 lines) — too large to read entirely");
    expect(outcome.result).toContain('read_file({"path": "big.log", "start_line": 1, "end_line": 200})');
    expect(outcome.result).toContain("Total lines: 600");
    expect((await harness.call("read_file", { path: "big.log", start_line: 600, end_line: 700 })).result).toContain(
      "600. entry 599",
    );
  });

  test("reports a range past the end and an inverted range", async ({ harness }) => {
    expect((await harness.call("read_file", { path: "src/main.ts", start_line: 9 })).result).toContain(
      "start_line 9 is past the end of src/main.ts, which has 5 lines",
    );
    expect((await harness.call("read_file", { path: "src/main.ts", start_line: 4, end_line: 2 })).result).toContain(
      "end_line (2) is before start_line (4)",
    );
  });

  test("explains missing files, directories and binary files", async ({ work, harness }) => {
    expect((await harness.call("read_file", { path: "src/mian.ts" })).result).toContain("Did you mean: src/main.ts?");
    expect((await harness.call("read_file", { path: "src" })).result).toContain("src is a directory");
    await writeFile(join(work, "logo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    expect((await harness.call("read_file", { path: "logo.png" })).result).toContain("looks like a binary file");
  });

  test("refuses paths outside the working dir with the tree listing, and .tickets", async ({ root, work, harness }) => {
    await symlink(join(root, "home"), join(work, "home-link"));
    const absolute = await harness.call("read_file", { path: "/etc/passwd" });
    expect(absolute.result).toContain("Absolute paths not allowed");
    expect(absolute.result).toContain(`Working dir: ${work}`);
    expect(absolute.result).toContain("  main.ts");
    expect((await harness.call("read_file", { path: "../proj/src/main.ts" })).result).toContain(
      "Path traversal not allowed",
    );
    expect((await harness.call("read_file", { path: "home-link/x" })).result).toContain("points outside");
    await mkdir(join(work, ".tickets"));
    await writeFile(join(work, ".tickets", "t-1.md"), "ticket\n");
    expect((await harness.call("read_file", { path: ".tickets/t-1.md" })).result).toContain("Use the ticket tools");
  });

  test("asks for set_working_dir when none is set", async ({ root }) => {
    const unset = await createToolHarness({ home: join(root, "home2"), codingMode: true, workingDir: null });
    try {
      expect((await unset.call("read_file", { path: "a.txt" })).result).toContain("Call set_working_dir");
    } finally {
      await unset.close();
    }
  });
});

describe("read_file and the context budget", () => {
  async function readWith(
    { root, work }: { root: string; work: string },
    thresholds: { warn: number; compact: number; hard: number },
    conversationText: string,
    path: string,
  ) {
    const budget = new ContextBudget(thresholds);
    budget.track([{ role: "user", content: conversationText }]);
    const session = createTestSession({
      home: join(root, "home-budget"),
      registry: registryOf(fileTools),
      codingMode: true,
      workingDir: work,
      budget,
    });
    await session.start();
    try {
      return await registryOf(fileTools).execute(
        "read_file",
        JSON.stringify({ path }),
        session.toolContext(new AbortController().signal),
      );
    } finally {
      await session.close();
    }
  }

  test("truncates a read that would pass the warning threshold and says so", async ({ root, work }) => {
    await writeFile(join(work, "notes.md"), Array.from({ length: 300 }, (_, index) => `word${index}`).join(" "));
    const outcome = await readWith({ root, work }, { warn: 300, compact: 400, hard: 500 }, "hello", "notes.md");
    expect(outcome.isError).toBe(false);
    expect(outcome.result).toMatch(/\[Truncated to fit context budget\. \d+ tokens → \d+ tokens\./);
    expect(outcome.result.length).toBeLessThan(2400);
  });

  test("refuses to read once the conversation is past the hard limit", async ({ root, work }) => {
    const outcome = await readWith(
      { root, work },
      { warn: 20, compact: 30, hard: 40 },
      "lorem ipsum ".repeat(60),
      "src/main.ts",
    );
    expect(outcome.isError).toBe(true);
    expect(outcome.result).toContain("past its context limit");
  });
});
