import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolHarness, type ToolHarness } from "../../../../tests/support/tool-harness.js";

let base: string;
let project: string;
let harness: ToolHarness;

async function put(path: string, content = ""): Promise<void> {
  await mkdir(dirname(join(project, path)), { recursive: true });
  await writeFile(join(project, path), content);
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "marvin-tree-")));
  project = join(base, "proj");
  await put(".gitignore", "dist/\n");
  await put(".git/HEAD", "ref: refs/heads/main\n");
  await put("README.md", "# proj\n");
  await put("src/a.ts");
  await put("src/components/Button.tsx");
  await put("src/components/deep/x.ts");
  await put("dist/out.js");
  await put("node_modules/pkg/index.js");
  for (let index = 0; index < 25; index++) await put(`many/file${String(index).padStart(2, "0")}.txt`);
  harness = await createToolHarness({ home: base, workingDir: project, codingMode: true });
});

afterAll(async () => {
  await harness.close();
  await rm(base, { recursive: true, force: true });
});

describe("tree", () => {
  it(
    "lists directories first, respects .gitignore, collapses node_modules, hides .git and reports " + "what it cut",
    async () => {
      const outcome = await harness.call("tree", { max_depth: 3 });
      expect(outcome.isError).toBe(false);
      const [listing, notes] = outcome.result.split("\n\n");
      expect(listing!.split("\n").filter((line) => !line.includes("file"))).toEqual([
        `${project}/`,
        "many/",
        "node_modules/ (contents not listed)",
        "src/",
        "  components/",
        "    deep/ (1 entry)",
        "    Button.tsx",
        "  a.ts",
        ".gitignore",
        "README.md",
      ]);
      expect(listing).toContain("  file24.txt");
      expect(notes).toBe(
        [
          "5 directories, 29 files shown.",
          "1 directory was not expanded (max_depth=3); raise max_depth or pass one as path.",
          "1 entry hidden by .gitignore (respect_gitignore=false shows them).",
        ].join("\n"),
      );
    },
  );

  it("shows ignored entries when asked, and lists a subdirectory with its own depth", async () => {
    const all = await harness.call("tree", { respect_gitignore: false, max_depth: 2 });
    expect(all.result).toContain("dist/\n  out.js");
    expect(all.result).not.toContain("hidden by .gitignore");
    const sub = await harness.call("tree", { path: "src", max_depth: 1 });
    expect(sub.result).toBe(
      "src/\ncomponents/ (2 entries)\na.ts\n\n1 directory, 1 file shown.\n1 directory was not expanded " +
        "(max_depth=1); raise max_depth or pass one as path.",
    );
  });

  it("caps the number of entries and counts the rest", async () => {
    const outcome = await harness.call("tree", { max_entries: 10, max_depth: 2 });
    expect(outcome.result.split("\n\n")[0]!.split("\n")).toHaveLength(11);
    // within depth 2: 5 top-level entries (dist is ignored) + 25 in many/ + 2 in src/ = 32; 10 shown
    expect(outcome.result).toMatch(/… \d+ more entries not shown \(max_entries=10\)/);
    const omitted = Number(/… (\d+) more/.exec(outcome.result)![1]);
    expect(omitted).toBe(22);
  });

  it("explains files, missing paths and escapes", async () => {
    expect((await harness.call("tree", { path: "README.md" })).result).toContain(
      "is a file, not a directory. Use read_file",
    );
    expect((await harness.call("tree", { path: "nope" })).result).toContain("nope does not exist in the working dir");
    const traversal = await harness.call("tree", { path: "../" });
    expect(traversal.isError).toBe(true);
    expect(traversal.result).toContain("Path traversal not allowed");
  });
});
