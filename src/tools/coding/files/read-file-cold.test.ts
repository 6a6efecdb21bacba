import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "../../../../tests/support/fixtures.js";
import { isTokenizerLoaded } from "../../../providers/token-counter.js";

// Its own file: module state (the tokenizer) starts cold here, as in a new session.
describe("read_file in a new session", () => {
  test("answers a small read without loading the tokenizer; a read that may not fit loads it", async ({
    tempDirs,
    harnesses,
  }) => {
    const base = await tempDirs.make("marvin-read-cold-");
    const work = join(base, "proj");
    await mkdir(work);
    await writeFile(join(work, "small.txt"), "hello\n");
    await writeFile(join(work, "wide.txt"), `${"=".repeat(250 * 1024)}\nend\n`);
    const harness = await harnesses.open({ home: join(base, "home"), codingMode: true, workingDir: work });

    expect(await harness.ok("read_file", { path: "small.txt" })).toBe("hello\n");
    expect(isTokenizerLoaded()).toBe(false);

    // 250 KB on one line, read with a range: counted exactly, in bounded time, and returned whole.
    const started = performance.now();
    const wide = await harness.ok("read_file", { path: "wide.txt", start_line: 1, end_line: 2 });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(isTokenizerLoaded()).toBe(true);
    expect(wide.startsWith(`1. ${"=".repeat(250 * 1024)}\n2. end`)).toBe(true);
    expect(wide).not.toContain("Truncated to fit context budget");
  });
});
