import { execFileSync } from "node:child_process";
import { mkdir, readdir, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { test as base, describe, expect } from "../../../../tests/support/fixtures.js";
import type { ToolHarness } from "../../../../tests/support/tool-harness.js";

// A working dir set up by someone else: FIFOs (made with mkfifo, as run_command could) and ignore
// files that are symlinks leading out. code_grep and tree must finish, and never read out there.

const hasRipgrep = (() => {
  try {
    execFileSync("rg", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
const engines = hasRipgrep ? (["rg", "builtin"] as const) : (["builtin"] as const);

async function put(project: string, path: string, content: string): Promise<void> {
  await mkdir(dirname(join(project, path)), { recursive: true });
  await writeFile(join(project, path), content);
}

const test = base.extend<{
  /** The test's temp folder: home, proj/ (the working dir), an empty PATH folder and ignore rules outside. */
  root: string;
  /** src/app.ts and src/hidden.ts each hold a needle. */
  project: string;
  /** Writes a file of `project`, making its folders. */
  put: (path: string, content: string) => Promise<void>;
  /** Makes a FIFO in `project`, as run_command could. */
  mkfifo: (path: string) => void;
  /** A coding session in `project`, whose code_grep uses ripgrep or (with an empty PATH) the built-in search. */
  open: (engine: "rg" | "builtin") => Promise<ToolHarness>;
}>({
  root: async ({ tempDirs }, use) => {
    const root = await tempDirs.make("marvin-hostile-");
    await mkdir(join(root, "empty-bin"));
    await writeFile(join(root, "outside-rules"), "hidden.ts\n");
    await use(root);
  },
  project: async ({ root }, use) => {
    const project = join(root, "proj");
    await put(project, "src/app.ts", "const needle = 1;\n");
    await put(project, "src/hidden.ts", "const needle = 2;\n");
    await use(project);
  },
  put: async ({ project }, use) => use((path, content) => put(project, path, content)),
  mkfifo: async ({ project }, use) => use((path) => execFileSync("mkfifo", [join(project, path)])),
  open: async ({ harnesses, root, project }, use) =>
    use((engine) =>
      harnesses.open({
        home: root,
        workingDir: project,
        codingMode: true,
        env: engine === "builtin" ? { PATH: join(root, "empty-bin") } : {},
      }),
    ),
});

describe.each(engines)("code_grep with %s in a hostile working dir", (engine) => {
  test("skips FIFOs in the tree and finishes", async ({ mkfifo, open }) => {
    mkfifo("src/pipe.ts");
    const result = await (await open(engine)).ok("code_grep", { pattern: "needle", context_lines: 0 });
    expect(result).toContain("2 matching lines in 2 files.");
  });

  test("refuses a FIFO given as the path, without opening it", async ({ mkfifo, open }) => {
    mkfifo("src/pipe.ts");
    const message = await (await open(engine)).failure("code_grep", { pattern: "needle", path: "src/pipe.ts" });
    expect(message).toContain("src/pipe.ts is a named pipe (FIFO), not a regular file");
  });

  test("does not block on an ignore file that is a FIFO", async ({ mkfifo, open }) => {
    mkfifo("src/.gitignore");
    mkfifo(".ignore");
    const result = await (await open(engine)).ok("code_grep", { pattern: "needle", context_lines: 0 });
    expect(result).toContain("2 matching lines in 2 files.");
  });

  test("never reads an ignore file that is a symlink leading outside the working dir", async ({
    root,
    project,
    open,
  }) => {
    await symlink(join(root, "outside-rules"), join(project, ".gitignore"));
    await symlink(join(root, "outside-rules"), join(project, "src", ".ignore"));
    const harness = await open(engine);
    expect(await harness.ok("code_grep", { pattern: "needle", context_lines: 0 })).toContain("src/hidden.ts");
    expect(await harness.ok("code_grep", { pattern: "needle", context_lines: 0, path: "src" })).toContain(
      "src/hidden.ts",
    );
  });

  test("never reads .git/info/exclude through a symlink leading out", async ({ root, project, open }) => {
    await mkdir(join(project, ".git"));
    await symlink(root, join(project, ".git", "info"));
    await writeFile(join(root, "exclude"), "hidden.ts\n");
    expect(await (await open(engine)).ok("code_grep", { pattern: "needle", context_lines: 0 })).toContain(
      "src/hidden.ts",
    );
  });

  test("still follows ignore files that are regular files inside", async ({ put, open }) => {
    await put("src/.gitignore", "hidden.ts\n");
    expect(await (await open(engine)).ok("code_grep", { pattern: "needle", context_lines: 0 })).not.toContain(
      "hidden.ts",
    );
  });
});

describe.skipIf(!hasRipgrep)("ripgrep in a hostile working dir", () => {
  test("takes no config file, so no --pre program the model wrote runs", async ({ root, put, project, harnesses }) => {
    const markers = join(root, "markers");
    await mkdir(markers);
    await writeFile(join(root, "pre.sh"), `#!/bin/sh\ntouch '${join(markers, "pre")}'\ncat "$1"\n`, { mode: 0o755 });
    await put(".ripgreprc", `--pre=${join(root, "pre.sh")}\n`);
    const env = { RIPGREP_CONFIG_PATH: join(project, ".ripgreprc") };
    const harness = await harnesses.open({ home: root, workingDir: project, codingMode: true, env });
    expect(await harness.ok("code_grep", { pattern: "needle", context_lines: 0 })).toContain(
      "2 matching lines in 2 files.",
    );
    expect(await readdir(markers)).toEqual([]);
  });
});

describe("tree in a hostile working dir", () => {
  test("lists FIFOs without opening them and does not block on a FIFO ignore file", async ({ mkfifo, open }) => {
    mkfifo("src/pipe.ts");
    mkfifo(".gitignore");
    const listing = await (await open("builtin")).ok("tree", {});
    expect(listing).toContain("pipe.ts");
    expect(listing).toContain("hidden.ts");
  });

  test("never applies an ignore file that is a symlink leading outside the working dir", async ({
    root,
    project,
    open,
  }) => {
    await symlink(join(root, "outside-rules"), join(project, ".gitignore"));
    expect(await (await open("builtin")).ok("tree", {})).toContain("hidden.ts");
  });
});
