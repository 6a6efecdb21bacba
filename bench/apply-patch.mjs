// apply_patch on a generated 5 MB file, through the real tool registry (built dist/).
// Run: npm run build && node bench/apply-patch.mjs
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createToolContext } from "../dist/session/standalone-tool-context.js";
import { createToolRegistry } from "../dist/tools/index.js";

const TARGET_BYTES = 5 * 1024 * 1024;
const TARGET_MS = 50;
const RUNS = 16;

function generateSource() {
  const lines = [];
  let size = 0;
  for (let index = 0; size < TARGET_BYTES; index++) {
    const line =
      `export const value${index} = compute(${index}, ` +
      `"${((index * 2654435761) % 2 ** 32).toString(16)}"); // entry ${index}\n`;
    lines.push(line);
    size += line.length;
  }
  return { text: lines.join(""), lineCount: lines.length };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function report(name, value) {
  const verdict = value < TARGET_MS ? "met" : "MISSED";
  console.log(`${name.padEnd(38)} ${value.toFixed(1)} ms  (target < ${TARGET_MS} ms: ${verdict})`);
}

/** Times `calls` alternately (each undoes the previous), median of RUNS. */
async function time(registry, context, calls) {
  const times = [];
  for (let run = 0; run < RUNS; run++) {
    const [name, args] = calls[run % calls.length];
    const started = performance.now();
    const outcome = await registry.execute(name, args, context);
    times.push(performance.now() - started);
    if (outcome.isError) throw new Error(`apply_patch failed: ${outcome.result}`);
  }
  return median(times);
}

const dir = await mkdtemp(join(tmpdir(), "marvin-bench-apply-patch-"));
try {
  const { text, lineCount } = generateSource();
  await writeFile(join(dir, "big.ts"), text);
  const registry = createToolRegistry();
  // A real tool context without a session: no language server, no checkpoints.
  const context = createToolContext({ home: dir, workingDir: dir, mode: { codingMode: true, nonInteractive: true } });
  const near = lineCount - 10;
  const oldLine = `export const value${near} = compute(${near},`;
  const newLine = `export const renamed${near} = compute(${near},`;
  const replace = (from, to) => ["apply_patch", JSON.stringify({ path: "big.ts", old_str: from, new_str: to })];
  const codex = (from, to) => [
    "apply_patch",
    ["*** Begin Patch", "*** Update File: big.ts", "@@", `-${from}`, `+${to}`, "*** End Patch"].join("\n"),
  ];
  const fullLine = (prefix) => text.split("\n")[near].replace(`export const value${near} = compute(${near},`, prefix);

  console.log(
    `file: ${(text.length / 1024 / 1024).toFixed(1)} MB, ${lineCount.toLocaleString("en-US")} lines; edit near the end`,
  );
  report(
    "apply_patch old_str/new_str (5 MB)",
    await time(registry, context, [replace(oldLine, newLine), replace(newLine, oldLine)]),
  );
  report(
    "apply_patch Codex patch (5 MB)",
    await time(registry, context, [
      codex(fullLine(oldLine), fullLine(newLine)),
      codex(fullLine(newLine), fullLine(oldLine)),
    ]),
  );
  if ((await readFile(join(dir, "big.ts"), "utf8")) !== text)
    throw new Error("the file did not return to its original content");
} finally {
  await rm(dir, { recursive: true, force: true });
}
