import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { test as base } from "./fixtures.js";
import type { ToolHarness } from "./tool-harness.js";

/**
 * The shared fixtures plus a coding session for file-tool tests: `root` holds `home/`, `proj/`
 * (the working dir, `work`) and `outside/` (a sibling the sandbox must never reach).
 */
export const test = base.extend<{ root: string; work: string; harness: ToolHarness }>({
  root: async ({ tempDirs }, use) => {
    const root = await tempDirs.make("marvin-file-tool-");
    await mkdir(join(root, "outside"));
    await use(root);
  },
  work: async ({ root }, use) => {
    await mkdir(join(root, "proj"));
    await use(join(root, "proj"));
  },
  harness: async ({ harnesses, root, work }, use) =>
    use(await harnesses.open({ home: join(root, "home"), codingMode: true, workingDir: work })),
});

export { describe, expect } from "vitest";
