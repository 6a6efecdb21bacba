import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONFORMANCE_DATA } from "../../../../tests/support/run-marvin.js";
import { createToolHarness, type ToolHarness } from "../../../../tests/support/tool-harness.js";

const SCENARIOS_DIR = join(CONFORMANCE_DATA, "apply-patch", "scenarios");
const scenarios = (await readdir(SCENARIOS_DIR, { withFileTypes: true }))
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/** Scenarios whose patch must be rejected (README: defined by the final tree; 015 is rejected whole by Marvin). */
const REJECTED = new Set(["005", "006", "007", "008", "009", "012", "013", "015"]);

/** Every file and directory under `root`: files map to their bytes (hex), directories to "dir". */
async function snapshotTree(root: string): Promise<Record<string, string>> {
  const tree: Record<string, string> = {};
  if (!existsSync(root)) return tree;
  for (const entry of await readdir(root, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    tree[relative(root, path)] = entry.isDirectory() ? "dir" : (await readFile(path)).toString("hex");
  }
  return tree;
}

type Form = { name: string; wrap: (patch: string) => unknown };
const FORMS: Form[] = [
  { name: "raw argument string", wrap: (patch) => patch },
  { name: "JSON-quoted raw string", wrap: (patch) => JSON.stringify(patch) },
  { name: "'input' field", wrap: (patch) => ({ input: patch }) },
  { name: "'patch' field", wrap: (patch) => ({ patch }) },
  { name: "new_str with an empty old_str", wrap: (patch) => ({ path: "", new_str: patch }) },
];

let harness: ToolHarness;
let base: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "marvin-apply-patch-conformance-"));
  harness = await createToolHarness({ home: join(base, "home"), codingMode: true, workingDir: base });
});

afterAll(async () => {
  await harness.close();
  await rm(base, { recursive: true, force: true });
});

describe.each(scenarios)("apply_patch conformance %s", (scenario) => {
  const dir = join(SCENARIOS_DIR, scenario);
  const rejected = REJECTED.has(scenario.slice(0, 3));

  it.each(FORMS)("ends in the expected tree when the patch is sent as $name", async ({ name, wrap }) => {
    const workingDir = join(base, `${scenario}-${name.replace(/\W+/g, "-")}`);
    await mkdir(workingDir, { recursive: true });
    if (existsSync(join(dir, "input"))) await cp(join(dir, "input"), workingDir, { recursive: true });
    harness.session.setWorkingDir(workingDir);

    const patch = await readFile(join(dir, "patch.txt"), "utf8");
    const outcome = await harness.call("apply_patch", wrap(patch));

    const expectedTree = scenario.startsWith("015")
      ? await snapshotTree(join(dir, "input"))
      : await snapshotTree(join(dir, "expected"));
    expect(await snapshotTree(workingDir)).toEqual(expectedTree);
    expect(outcome.isError, outcome.result).toBe(rejected);
    if (!rejected) expect(outcome.result).toContain("Success. Updated the following files:");
    if (scenario.startsWith("015")) {
      expect(outcome.result).toContain("Operation 2 of 2 (Update File: missing.txt) failed");
      expect(outcome.result).toContain("No files were modified");
    }
  });
});
