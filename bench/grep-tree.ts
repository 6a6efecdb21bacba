// code_grep and tree on a generated tree of 50,000 files, through the real tool registry of the built marvin;
// code_grep in turns with plain `rg` on the same tree.
import { spawn, spawnSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { builtModule } from "./built.js";
import { alternate, timed, within } from "./limits.js";
import { median, ms, report, reportRatio } from "./stats.js";

type Registry = ReturnType<typeof import("../src/tools/index.js").createToolRegistry>;
type Context = ReturnType<typeof import("../src/session/standalone-tool-context.js").createToolContext>;

const PACKAGES = 20;
const MODULES_PER_PACKAGE = 25;
const FILES_PER_MODULE = 100; // 20 × 25 × 100 = 50,000 files
const RUNS = 7;

/** A source file of 10–120 lines (≈0.4–6 KB); every 97th carries the rare marker. */
function sourceFile(index: number): string {
  const lines = [`// file ${index}`, `import { helper${index % 50} } from "../shared/helper${index % 50}.js";`, ""];
  const functions = 2 + ((index * 7919) % 24);
  for (let fn = 0; fn < functions; fn++) {
    lines.push(
      `export function handler${index}_${fn}(input) {`,
      `  const value = helper${index % 50}(input, ${fn});`,
      "  return value;",
      "}",
      "",
    );
  }
  if (index % 97 === 0) lines.splice(3, 0, "// TODO(bench): revisit this module");
  return lines.join("\n");
}

async function generate(root: string): Promise<number> {
  await writeFile(join(root, ".gitignore"), "dist/\n*.log\n");
  let index = 0;
  const writes: Array<[string, string]> = [];
  for (let pkg = 0; pkg < PACKAGES; pkg++) {
    for (let mod = 0; mod < MODULES_PER_PACKAGE; mod++) {
      const dir = join(root, `pkg${pkg}`, "src", `mod${mod}`);
      await mkdir(dir, { recursive: true });
      for (let file = 0; file < FILES_PER_MODULE; file++)
        writes.push([join(dir, `file${file}.js`), sourceFile(index++)]);
    }
  }
  for (let start = 0; start < writes.length; start += 256)
    await Promise.all(writes.slice(start, start + 256).map(([path, text]) => writeFile(path, text)));
  return index;
}

/** Median milliseconds of `run`, `runs` times. */
async function time(run: () => Promise<unknown>, runs = RUNS): Promise<number> {
  const times = await alternate(runs, { run: () => timed(run) });
  return median(times.run);
}

/** Plain `rg` as a person would run it, output read fully (as a terminal or pipe would). */
function plainRipgrep(root: string, pattern: string): Promise<unknown> {
  const args = ["--line-number", "--context", "2", "--hidden", "--no-require-git", "--regexp", pattern];
  const child = spawn("rg", args, { cwd: root, stdio: ["ignore", "pipe", "ignore"] });
  child.stdout.on("data", () => undefined);
  const done = new Promise((resolve, reject) => child.on("error", reject).on("close", resolve));
  return within(`rg ${pattern} to end`, 30_000, done, () => child.kill("SIGKILL"));
}

async function call(registry: Registry, ctx: Context, name: string, args: Record<string, unknown>): Promise<void> {
  const outcome = await registry.execute(name, args, ctx);
  if (outcome.isError) throw new Error(`${name} failed: ${outcome.result}`);
}

/** code_grep in turns with plain rg for one pattern; undefined without rg. */
async function grepPattern(registry: Registry, context: Context, root: string, pattern: string) {
  if (spawnSync("rg", ["--version"]).status !== 0) return undefined;
  await plainRipgrep(root, pattern); // warm the page cache
  const times = await alternate(RUNS, {
    rg: () => timed(() => plainRipgrep(root, pattern)),
    codeGrep: () => timed(() => call(registry, context, "code_grep", { pattern })),
  });
  return { rg: median(times.rg), codeGrep: median(times.codeGrep) };
}

export async function grepTree(): Promise<void> {
  const { createToolRegistry } = await builtModule<typeof import("../src/tools/index.js")>("tools/index.js");
  const { createToolContext } = await builtModule<typeof import("../src/session/standalone-tool-context.js")>(
    "session/standalone-tool-context.js",
  );
  const root = await mkdtemp(join(tmpdir(), "marvin-bench-grep-"));
  try {
    const started = performance.now();
    const files = await generate(root);
    const took = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`generated ${files.toLocaleString("en-US")} files in ${took} s; median of ${RUNS} runs`);
    const registry = createToolRegistry();
    const contextWith = (path: string) =>
      createToolContext({ home: root, workingDir: root, env: { PATH: path }, mode: { codingMode: true } });
    const contexts = { ripgrep: contextWith(process.env.PATH ?? ""), builtin: contextWith(join(root, "no-such-bin")) };
    for (const [label, pattern] of [
      ["rare", "TODO\\(bench\\)"],
      ["common", "helper4\\d\\(input, 1\\)"],
    ] as const) {
      const compared = await grepPattern(registry, contexts.ripgrep, root, pattern);
      const name = `code_grep, ${label} pattern`;
      if (compared) reportRatio(name, compared.codeGrep, { label: "plain rg -n -C2", value: compared.rg }, 1.5);
      else report(name, "not compared: rg is not installed");
      const builtin = await time(() => call(registry, contexts.builtin, "code_grep", { pattern }), 3);
      report(`  built-in engine, no rg (/${pattern}/)`, ms(builtin));
    }
    report("tree (defaults: depth 3, 300 entries)", ms(await time(() => call(registry, contexts.ripgrep, "tree", {}))));
    const deep = { max_depth: 4, max_entries: 5000 };
    report("tree (depth 4, 5000 entries)", ms(await time(() => call(registry, contexts.ripgrep, "tree", deep))));
    for (const context of Object.values(contexts)) context.close();
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
