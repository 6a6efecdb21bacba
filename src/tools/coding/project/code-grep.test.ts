import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolHarness, type ToolHarness } from "../../../../tests/support/tool-harness.js";

let base: string;
let project: string;
let emptyBin: string;
const harnesses: ToolHarness[] = [];

const hasRipgrep = (() => {
  try {
    execFileSync("rg", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

async function put(path: string, content: string | Buffer): Promise<void> {
  await mkdir(dirname(join(project, path)), { recursive: true });
  await writeFile(join(project, path), content);
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "marvin-grep-")));
  project = join(base, "proj");
  emptyBin = join(base, "empty-bin");
  await mkdir(emptyBin);
  await mkdir(join(base, "proj-evil"));
  await writeFile(join(base, "proj-evil", "secret.ts"), "const needle = 'outside';\n");
  await put(".gitignore", "build/\n*.log\n!keep.log\n");
  await put(
    "src/app.ts",
    [
      "import x from 'y';",
      "",
      "export function needleHandler() {",
      "  return 1;",
      "}",
      "",
      "const other = needleHandler();",
      "",
    ].join("\n"),
  );
  await put("src/util/strings.ts", "export const Needle = 'upper';\nexport const plain = 1;\n");
  await put("src/notes.md", "needle in markdown\r\nsecond line\r\n");
  await put(
    "src/many.ts",
    `${Array.from({ length: 30 }, (_, index) => `const needle${index} = ${index};`).join("\n")}\n`,
  );
  await put("build/out.ts", "const needle = 'built';\n");
  await put("debug.log", "needle in a log\n");
  await put("keep.log", "needle kept despite *.log\n");
  await put(".github/workflow.yml", "name: needle-ci\n");
  await put("node_modules/pkg/index.js", "module.exports = 'needle';\n");
  await put(".tickets/t-1.md", "needle ticket\n");
  await put("image.bin", Buffer.concat([Buffer.from("needle"), Buffer.from([0, 1, 2, 3])]));
  await symlink(join(base, "proj-evil"), join(project, "evil-link"));
});

afterAll(async () => {
  for (const harness of harnesses) await harness.close();
  await rm(base, { recursive: true, force: true });
});

async function harness(engine: "rg" | "builtin"): Promise<ToolHarness> {
  const created = await createToolHarness({
    home: base,
    workingDir: project,
    codingMode: true,
    env: engine === "builtin" ? { PATH: emptyBin } : {},
  });
  harnesses.push(created);
  return created;
}

async function grepWith(engine: "rg" | "builtin", args: Record<string, unknown>) {
  return (await harness(engine)).call("code_grep", args);
}

const engines = hasRipgrep ? (["rg", "builtin"] as const) : (["builtin"] as const);

describe.each(engines)("code_grep with %s", (engine) => {
  it("prints matches grouped by file with context lines, sorted by path", async () => {
    const outcome = await grepWith(engine, { pattern: "needleHandler", context_lines: 1 });
    expect(outcome.isError).toBe(false);
    expect(outcome.result).toBe(
      [
        "src/app.ts",
        "2-",
        "3:export function needleHandler() {",
        "4-  return 1;",
        "--",
        "6-",
        "7:const other = needleHandler();",
        "",
        "2 matching lines in 1 file.",
      ].join("\n"),
    );
  });

  it(
    "respects .gitignore (with negation), skips node_modules, .tickets, binaries and symlinks; searches " +
      "hidden files",
    async () => {
      const outcome = await grepWith(engine, { pattern: "needle", context_lines: 0, max_results: 100 });
      const files = outcome.result
        .split("\n\n")
        .slice(0, -1)
        .map((block) => block.split("\n")[0]);
      expect(files).toEqual([".github/workflow.yml", "keep.log", "src/app.ts", "src/many.ts", "src/notes.md"]);
      expect(outcome.result).toContain("src/notes.md\n1:needle in markdown\n\n35 matching lines in 5 files.");
      expect(outcome.result).not.toContain("\r");
    },
  );

  it("caps the results and says how many were left out", async () => {
    const outcome = await grepWith(engine, { pattern: "needle\\d+", max_results: 5, context_lines: 1 });
    expect(outcome.result).toBe(
      [
        "src/many.ts",
        "1:const needle0 = 0;",
        "2:const needle1 = 1;",
        "3:const needle2 = 2;",
        "4:const needle3 = 3;",
        "5:const needle4 = 4;",
        "",
        "Showing the first 5 matching lines (in 1 file) of 30 in 1 file; 25 more not shown. Narrow the pattern, pass " +
          "glob_filter or path, or raise max_results.",
      ].join("\n"),
    );
  });

  it("filters by glob (braces and lists), and a glob overrides .gitignore as in ripgrep", async () => {
    const markdown = await grepWith(engine, { pattern: "needle", glob_filter: "*.{md,yml}", context_lines: 0 });
    expect(markdown.result).toContain("src/notes.md\n1:needle in markdown");
    expect(markdown.result).toContain("2 matching lines in 2 files.");
    const logs = await grepWith(engine, { pattern: "needle", glob_filter: "*.log, !keep.log", context_lines: 0 });
    expect(logs.result).toBe("debug.log\n1:needle in a log\n\n1 matching line in 1 file.");
  });

  it("searches case-insensitively on request, and only under path", async () => {
    const sensitive = await grepWith(engine, { pattern: "Needle", context_lines: 0 });
    expect(sensitive.result).toBe(
      "src/util/strings.ts\n1:export const Needle = 'upper';\n\n1 matching line in 1 file.",
    );
    const insensitive = await grepWith(engine, {
      pattern: "NEEDLE =",
      ignore_case: true,
      path: "src/util",
      context_lines: 0,
    });
    expect(insensitive.result).toBe(
      "src/util/strings.ts\n1:export const Needle = 'upper';\n\n1 matching line in 1 file.",
    );
  });

  it("says clearly when nothing matches or the pattern is invalid", async () => {
    const none = await grepWith(engine, { pattern: "no_such_token", glob_filter: "*.ts" });
    expect(none).toEqual({
      isError: false,
      result: "No matches for /no_such_token/ in the working dir (files matching *.ts).",
    });
    const invalid = await grepWith(engine, { pattern: "(unclosed" });
    expect(invalid.isError).toBe(true);
    expect(invalid.result).toContain("Invalid regex pattern /(unclosed/");
    expect(invalid.result).toContain("Escape special characters");
  });

  it("refuses paths outside the working dir", async () => {
    for (const path of ["../proj-evil", "/etc", "evil-link"]) {
      const outcome = await grepWith(engine, { pattern: "needle", path });
      expect(outcome.isError).toBe(true);
      expect(outcome.result).toContain(`Working dir: ${project}`);
    }
    const tickets = await grepWith(engine, { pattern: "needle", path: ".tickets" });
    expect(tickets.result).toContain("Use the ticket tools instead");
  });
});

describe.skipIf(!hasRipgrep)("code_grep engines", () => {
  it("give identical output for the same query", async () => {
    for (const args of [
      { pattern: "needle", context_lines: 2, max_results: 7 },
      { pattern: "^export", glob_filter: "src/**" },
      { pattern: "const\\s+\\w+", ignore_case: true, max_results: 3, context_lines: 0 },
    ]) {
      const [ripgrep, builtin] = await Promise.all([grepWith("rg", args), grepWith("builtin", args)]);
      expect(builtin).toEqual(ripgrep);
    }
  });
});
