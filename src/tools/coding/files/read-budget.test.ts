import { readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test as base, describe, expect } from "../../../../tests/support/fixtures.js";
import type { ToolHarness } from "../../../../tests/support/tool-harness.js";
import { READ_BUDGET_MAX, READ_BUDGET_WARN } from "./read-budget.js";

/** 2,000 lines of 100 characters: a read of 1,000 lines returns about 105,000 characters. */
const LINE = "x".repeat(99);
const halfFile = { path: "big.txt", start_line: 1, end_line: 1000 };
const otherHalf = { path: "big.txt", start_line: 1001, end_line: 2000 };

const test = base.extend<{
  /** The working dir, with big.txt (2,000 lines) and small.txt. */
  work: string;
  /** A coding session in `work`. */
  openSession: () => Promise<ToolHarness>;
}>({
  work: async ({ workspace }, use) => {
    await writeFile(join(workspace, "big.txt"), `${LINE}\n`.repeat(2000));
    await writeFile(join(workspace, "small.txt"), "a small file\n");
    await use(workspace);
  },
  openSession: async ({ harnesses, home, work }, use) =>
    use(() => harnesses.open({ home, codingMode: true, workingDir: work })),
});

describe("read_file session read budget (seed 004 §6.13B)", () => {
  test("uses the seed's numbers: a warning past 200,000 characters, nothing past 300,000", () => {
    expect(READ_BUDGET_WARN).toBe(200_000);
    expect(READ_BUDGET_MAX).toBe(300_000);
  });

  test("warns past 200,000 characters, cuts the read reaching 300,000, then refuses and dumps to memories", async ({
    work,
    openSession,
  }) => {
    const harness = await openSession();
    const first = await harness.ok("read_file", halfFile);
    expect(first).not.toContain("Read budget");
    expect(first.length).toBeLessThan(READ_BUDGET_WARN);

    const second = await harness.ok("read_file", otherHalf);
    expect(second.startsWith("1001. ")).toBe(true);
    expect(second).toContain("2000. ");
    expect(second).toMatch(/\[Read budget: 2\d\d,\d{3} of 300,000 characters read this session; reads stop at 300,000/);
    expect(second).toContain("Save what you have found so far in .marvin/memories/");

    const third = await harness.ok("read_file", halfFile);
    expect(third).toMatch(/\[Cut to fit the session read budget: [\d,]+ of [\d,]+ characters shown\. /);
    expect(third).toContain("Read budget: 300,000 of 300,000 characters");
    expect(third).toContain("read_file now returns nothing more this session");
    const body = third.slice(0, third.indexOf("\n\n[Cut to fit"));
    expect(first.length + second.indexOf("\n\n[Read budget") + body.length).toBeLessThanOrEqual(READ_BUDGET_MAX);
    expect(body.endsWith(LINE)).toBe(true); // cut at a line end

    const refused = await harness.failure("read_file", { path: "small.txt" });
    expect(refused).toContain("Read budget used up");
    expect(refused).toContain(".marvin/memories/dump-small.txt.txt");
    expect(refused).toContain("Save what you have found so far in .marvin/memories/");
    expect(await readFile(join(work, ".marvin", "memories", "dump-small.txt.txt"), "utf8")).toBe("a small file\n");

    // A second refusal for the same name keeps the first dump.
    const again = await harness.failure("read_file", { path: "small.txt" });
    expect(again).toContain(".marvin/memories/dump-small.txt-2.txt");
    const dumps = await readdir(join(work, ".marvin", "memories"));
    expect(dumps.sort()).toEqual(["dump-small.txt-2.txt", "dump-small.txt.txt"]);
  });

  test("starts afresh in each session", async ({ openSession }) => {
    const spent = await openSession();
    await spent.ok("read_file", halfFile);
    await spent.ok("read_file", otherHalf);
    await spent.ok("read_file", halfFile);
    await spent.failure("read_file", { path: "small.txt" });
    const fresh = await openSession();
    expect(await fresh.ok("read_file", { path: "small.txt" })).toBe("a small file\n");
  });

  test("never dumps through a .marvin symlink that leads out of the working dir", async ({
    work,
    openSession,
    tempDirs,
  }) => {
    const outside = await tempDirs.make("marvin-read-budget-outside-");
    await symlink(outside, join(work, ".marvin"));
    const harness = await openSession();
    await harness.ok("read_file", halfFile);
    await harness.ok("read_file", otherHalf);
    await harness.ok("read_file", halfFile);
    const refused = await harness.failure("read_file", { path: "small.txt" });
    expect(refused).toContain("outside the working dir");
    expect(await readdir(outside)).toEqual([]);
  });
});
