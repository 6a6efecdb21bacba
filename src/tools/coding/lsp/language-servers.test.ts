import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test as base, describe, expect } from "../../../../tests/support/fixtures.js";
import { running, waitFor } from "../../../../tests/support/processes.js";
import type { ToolHarness } from "../../../../tests/support/tool-harness.js";
import type { AgentEvent } from "../../../agent/events.js";

/**
 * Generous: a cold typescript-language-server on a loaded 2-core CI machine once needed more than 40 s for its first
 * file. Within the writing tools' own 60 s limit, so a slow server gives a clear assertion, not a tool time-out.
 */
const LSP_ENV = { MARVIN_LSP: "on", MARVIN_LSP_WAIT: "55", MARVIN_LSP_COLD_WAIT: "55" };

const test = base.extend<{ work: string; harness: ToolHarness }>({
  work: async ({ tempDirs }, use) => {
    const work = await tempDirs.make("marvin-lsp-");
    const compilerOptions = { strict: true, noEmit: true, target: "es2022", module: "nodenext" };
    await writeFile(join(work, "tsconfig.json"), JSON.stringify({ compilerOptions }));
    await use(work);
  },
  harness: async ({ harnesses, tempDirs, work }, use) => {
    const home = await tempDirs.make("marvin-lsp-home-");
    await use(await harnesses.open({ home, codingMode: true, workingDir: work, env: LSP_ENV }));
  },
});

/** Pids of `pid` and every process below it. */
function processTree(pid: number): number[] {
  let listed = "";
  try {
    listed = execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" });
  } catch {
    // ps exits 1 when the process has no children
  }
  const children = listed
    .split("\n")
    .map((line) => Number(line.trim()))
    .filter((child) => child > 0);
  return [pid, ...children.flatMap(processTree)];
}

const serverPid = (harness: ToolHarness) =>
  Number(/pid (\d+)/.exec(harness.session.services.diagnostics.describe()[0]!)?.[1]);

describe("diagnostics after edits (real typescript-language-server)", () => {
  test("create_file reports the type error it introduced; the fix makes it go away", {
    timeout: 240_000,
  }, async ({ harness }) => {
    const broken = await harness.ok("create_file", { path: "src/a.ts", content: 'export const a: number = "x";\n' });
    expect(broken).toContain("Created src/a.ts");
    expect(broken).toContain("Errors reported by the typescript language server in src/a.ts:");
    expect(broken).toMatch(/src\/a\.ts:1:14: Type 'string' is not assignable to type 'number'\. \(typescript 2322\)/);

    const fixed = await harness.ok("apply_patch", { path: "src/a.ts", old_str: '"x"', new_str: "1" });
    expect(fixed).toContain("No errors reported by the typescript language server in src/a.ts.");
    expect(fixed).not.toContain("not assignable");

    const again = await harness.ok("append_file", { path: "src/a.ts", content: "export const b: string = 2;\n" });
    expect(again).toMatch(/src\/a\.ts:2:14: Type 'number' is not assignable to type 'string'/);
    expect(again).not.toContain("src/a.ts:1:");

    const patch = [
      "*** Begin Patch",
      "*** Add File: src/ok.ts",
      "+export const ok = 1;",
      "*** Add File: src/bad.ts",
      "+export const bad: boolean = 0;",
      "*** End Patch",
    ].join("\n");
    const both = await harness.ok("apply_patch", patch);
    expect(both).toContain("No errors reported by the typescript language server in src/ok.ts.");
    expect(both).toMatch(/src\/bad\.ts:1:14: Type 'number' is not assignable to type 'boolean'/);
  });

  test("no code and no edits: no server; a server and its children stop with the session", {
    timeout: 240_000,
  }, async ({ tempDirs, harnesses }) => {
    const work = await tempDirs.make("marvin-lsp-plain-");
    await writeFile(join(work, "notes.md"), "# Notes\n");
    const home = await tempDirs.make("marvin-lsp-home-");
    const harness = await harnesses.open({ home, codingMode: true, workingDir: work, env: LSP_ENV });
    await harness.ok("read_file", { path: "notes.md" });
    expect(harness.session.services.diagnostics.describe()).toEqual([
      "No language server is running: one starts when coding mode opens a project or a tool writes a code file.",
    ]);

    await harness.ok("create_file", { path: "c.ts", content: "export const c = 2;\n" });
    expect(harness.session.services.diagnostics.describe()[0]).toMatch(/^typescript: .* \(running, pid \d+\)$/);
    const pids = processTree(serverPid(harness));
    expect(pids.length).toBeGreaterThan(1); // the server and its tsserver processes
    await harness.session.close();
    await waitFor(() => pids.every((pid) => !running(pid)), 5_000);
  });

  test("coding mode on a TypeScript project starts its server: the first write gets its errors in the warm wait", {
    timeout: 240_000,
  }, async ({ tempDirs, harnesses, work }) => {
    await mkdir(join(work, "src"));
    await writeFile(join(work, "src/main.ts"), "export const main = 1;\n");
    const home = await tempDirs.make("marvin-lsp-home-");
    // The default waits: 3 s for a warm server.
    const harness = await harnesses.open({ home, codingMode: true, workingDir: null, env: { MARVIN_LSP: "on" } });
    await harness.ok("set_working_dir", { path: work }); // as `!code` and the start of a coding session do too
    await waitFor(() => /^typescript: /.test(harness.session.services.diagnostics.describe()[0]!), 10_000);
    const warm = Date.now();
    await waitFor(() => / \(running, pid \d+\)$/.test(harness.session.services.diagnostics.describe()[0]!), 180_000);
    console.log(`warm-up took ${Date.now() - warm} ms`);
    const started = Date.now();
    const result = await harness.ok("create_file", { path: "src/a.ts", content: "export const a: number = true;\n" });
    console.log(`the first write's diagnostics took ${Date.now() - started} ms`);
    expect(result).toMatch(/src\/a\.ts:1:14: Type 'boolean' is not assignable to type 'number'/);
  });

  test("diagnostics that come after the wait end the next tool result, once, if the file is unchanged", {
    timeout: 240_000,
  }, async ({ tempDirs, harnesses, work }) => {
    const home = await tempDirs.make("marvin-lsp-home-");
    // A wait no server meets: every answer comes late.
    const env = { MARVIN_LSP: "on", MARVIN_LSP_WAIT: "0.001", MARVIN_LSP_COLD_WAIT: "0.001" };
    const harness = await harnesses.open({ home, codingMode: true, workingDir: work, env });
    const first = await harness.ok("create_file", { path: "a.ts", content: "export const a: number = 'x';\n" });
    expect(first).toContain("the typescript language server gave no diagnostics for a.ts in time");
    const changed = await harness.ok("create_file", { path: "b.ts", content: "export const b: number = 'y';\n" });
    await writeFile(join(work, "b.ts"), "export const b = 1;\n");
    const results = [changed];
    const deadline = Date.now() + 180_000;
    while (!results.at(-1)!.includes("arrived late for a.ts") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      results.push(await harness.ok("get_working_dir", {}));
    }
    const late = results.at(-1)!;
    expect(late).toContain("Diagnostics that arrived late for a.ts (written earlier):\n");
    expect(late).toContain("Errors reported by the typescript language server in a.ts:\n");
    expect(late).toMatch(/a\.ts:1:14: Type 'string' is not assignable to type 'number'/);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    results.push(await harness.ok("read_file", { path: "a.ts" }));
    expect(results.filter((result) => result.includes("arrived late for a.ts"))).toHaveLength(1);
    expect(results.join("\n")).not.toContain("arrived late for b.ts");
  });

  test("a missing server costs one notice and no error", async ({ tempDirs, harnesses }) => {
    const work = await tempDirs.make("marvin-lsp-py-");
    const emptyBin = await tempDirs.make("marvin-lsp-bin-");
    const home = await tempDirs.make("marvin-lsp-home-");
    const harness = await harnesses.open({
      home,
      codingMode: true,
      workingDir: work,
      env: { ...LSP_ENV, PATH: emptyBin },
    });
    const notices: string[] = [];
    harness.session.subscribe((event: AgentEvent) => {
      if (event.type === "notice") notices.push(event.text);
    });
    expect(await harness.ok("create_file", { path: "a.py", content: "x = 1\n" })).toBe(
      "Created a.py (6 bytes, 1 lines).",
    );
    await harness.ok("create_file", { path: "b.py", content: "y = 2\n" });
    expect(notices).toEqual([
      "No diagnostics for python files: pyright-langserver is not installed (npm install -g pyright).",
    ]);
  });

  test("a hostile project cannot choose the programs: neither its node_modules nor '.' on PATH", {
    timeout: 240_000,
  }, async ({ tempDirs, harnesses, work }) => {
    const planted = join(work, "planted");
    const script = `#!/bin/sh\ntouch ${planted}\n`;
    for (const bin of ["node_modules/.bin/typescript-language-server", "typescript-language-server"]) {
      await mkdir(join(work, bin, ".."), { recursive: true });
      await writeFile(join(work, bin), script);
      await chmod(join(work, bin), 0o755);
    }
    await mkdir(join(work, "node_modules/typescript/lib"), { recursive: true });
    await writeFile(join(work, "node_modules/typescript/package.json"), '{"name":"typescript","version":"9.0.0"}');
    await writeFile(
      join(work, "node_modules/typescript/lib/tsserver.js"),
      `require("fs").writeFileSync("${planted}", "")`,
    );
    const home = await tempDirs.make("marvin-lsp-home-");
    const path = `.:node_modules/.bin:${process.env.PATH}`;
    const harness = await harnesses.open({ home, codingMode: true, workingDir: work, env: { ...LSP_ENV, PATH: path } });
    const result = await harness.ok("create_file", { path: "d.ts", content: "export const d: number = true;\n" });
    expect(result).toMatch(/d\.ts:1:14: Type 'boolean' is not assignable to type 'number'/);
    expect(existsSync(planted)).toBe(false);
  });

  test("lsp.json turns languages off and names servers; a broken file or server costs a notice", async ({
    tempDirs,
    harnesses,
  }) => {
    const work = await tempDirs.make("marvin-lsp-config-");
    const home = await tempDirs.make("marvin-lsp-home-");
    const lspJson = join(home, ".config", "local-finder", "lsp.json");
    await mkdir(join(lspJson, ".."), { recursive: true });
    await writeFile(lspJson, JSON.stringify({ servers: { python: false, go: { command: "/bin/false" } } }));
    const harness = await harnesses.open({ home, codingMode: true, workingDir: work, env: LSP_ENV });
    const notices: string[] = [];
    harness.session.subscribe((event: AgentEvent) => {
      if (event.type === "notice") notices.push(event.text);
    });
    expect(await harness.ok("create_file", { path: "a.py", content: "x = 1\n" })).toBe(
      "Created a.py (6 bytes, 1 lines).",
    );
    expect(await harness.ok("create_file", { path: "main.go", content: "package main\n" })).toBe(
      "Created main.go (13 bytes, 1 lines).",
    );
    expect(await harness.ok("create_file", { path: "lib.rs", content: "fn f() {}\n" })).toBe(
      "Created lib.rs (10 bytes, 1 lines).",
    );
    await harness.ok("create_file", { path: "b.go", content: "package main\n" });
    expect(notices).toEqual([
      "No diagnostics for python files: python is turned off in lsp.json.",
      expect.stringMatching(/^The go language server \(\/bin\/false\) stopped: .*Edits of go files get no diagnostics/),
      expect.stringMatching(
        /^No diagnostics for rust files: rust-analyzer is started only when configured in lsp\.json/,
      ),
    ]);
    expect(harness.session.services.diagnostics.describe()).toEqual([
      expect.stringMatching(/^go: \/bin\/false in .* \(failed, pid \d+: .*\)$/),
    ]);

    await writeFile(lspJson, JSON.stringify({ servers: { python: { command: "pyright", flags: [] } } }));
    await harness.ok("create_file", { path: "d.py", content: "" });
    expect(notices.at(-1)).toMatch(/lsp\.json is not used: .*flags/);
  });
});
