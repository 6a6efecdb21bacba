import { execFileSync } from "node:child_process";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TempDirs } from "../../../tests/support/test-session.js";
import { type ToolHarness, ToolHarnessPool } from "../../../tests/support/tool-harness.js";

// A working dir set up by someone else: FIFOs (made with mkfifo, as run_command could) and ignore
// files that are symlinks leading out. code_grep and tree must finish, and never read out there.

const dirs = new TempDirs();
const harnesses = new ToolHarnessPool();
let base: string;
let project: string;
let emptyBin: string;

const hasRipgrep = (() => {
  try {
    execFileSync("rg", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
const engines = hasRipgrep ? (["rg", "builtin"] as const) : (["builtin"] as const);

async function put(path: string, content: string): Promise<void> {
  await mkdir(dirname(join(project, path)), { recursive: true });
  await writeFile(join(project, path), content);
}

const mkfifo = (path: string) => execFileSync("mkfifo", [join(project, path)]);

beforeEach(async () => {
  base = await dirs.make("marvin-hostile-");
  project = join(base, "proj");
  emptyBin = join(base, "empty-bin");
  await mkdir(emptyBin);
  await put("src/app.ts", "const needle = 1;\n");
  await put("src/hidden.ts", "const needle = 2;\n");
  await writeFile(join(base, "outside-rules"), "hidden.ts\n");
});

afterEach(async () => {
  await harnesses.closeAll();
  await dirs.cleanup();
});

function open(engine: "rg" | "builtin"): Promise<ToolHarness> {
  return harnesses.open({
    home: base,
    workingDir: project,
    codingMode: true,
    env: engine === "builtin" ? { PATH: emptyBin } : {},
  });
}

describe.each(engines)("code_grep with %s in a hostile working dir", (engine) => {
  it("skips FIFOs in the tree and finishes", async () => {
    mkfifo("src/pipe.ts");
    const result = await (await open(engine)).ok("code_grep", { pattern: "needle", context_lines: 0 });
    expect(result).toContain("2 matching lines in 2 files.");
  });

  it("refuses a FIFO given as the path, without opening it", async () => {
    mkfifo("src/pipe.ts");
    const message = await (await open(engine)).failure("code_grep", { pattern: "needle", path: "src/pipe.ts" });
    expect(message).toContain("src/pipe.ts is a named pipe (FIFO), not a regular file");
  });

  it("does not block on an ignore file that is a FIFO", async () => {
    mkfifo("src/.gitignore");
    mkfifo(".ignore");
    const result = await (await open(engine)).ok("code_grep", { pattern: "needle", context_lines: 0 });
    expect(result).toContain("2 matching lines in 2 files.");
  });

  it("never reads an ignore file that is a symlink leading outside the working dir", async () => {
    await symlink(join(base, "outside-rules"), join(project, ".gitignore"));
    await symlink(join(base, "outside-rules"), join(project, "src", ".ignore"));
    const harness = await open(engine);
    expect(await harness.ok("code_grep", { pattern: "needle", context_lines: 0 })).toContain("src/hidden.ts");
    expect(await harness.ok("code_grep", { pattern: "needle", context_lines: 0, path: "src" })).toContain(
      "src/hidden.ts",
    );
  });

  it("never reads .git/info/exclude through a symlink leading out", async () => {
    await mkdir(join(project, ".git"));
    await symlink(base, join(project, ".git", "info"));
    await writeFile(join(base, "exclude"), "hidden.ts\n");
    expect(await (await open(engine)).ok("code_grep", { pattern: "needle", context_lines: 0 })).toContain(
      "src/hidden.ts",
    );
  });

  it("still follows ignore files that are regular files inside", async () => {
    await put("src/.gitignore", "hidden.ts\n");
    expect(await (await open(engine)).ok("code_grep", { pattern: "needle", context_lines: 0 })).not.toContain(
      "hidden.ts",
    );
  });
});

describe("tree in a hostile working dir", () => {
  it("lists FIFOs without opening them and does not block on a FIFO ignore file", async () => {
    mkfifo("src/pipe.ts");
    mkfifo(".gitignore");
    const listing = await (await open("builtin")).ok("tree", {});
    expect(listing).toContain("pipe.ts");
    expect(listing).toContain("hidden.ts");
  });

  it("never applies an ignore file that is a symlink leading outside the working dir", async () => {
    await symlink(join(base, "outside-rules"), join(project, ".gitignore"));
    expect(await (await open("builtin")).ok("tree", {})).toContain("hidden.ts");
  });
});
