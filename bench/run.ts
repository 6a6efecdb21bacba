import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../tests/support/run-marvin.js";
import { runCoreBenchmarks } from "./core.js";

/** Domain benchmarks kept as standalone scripts; each prints its own figures. */
const SCRIPTS = [
  "apply-patch.mjs",
  "grep-tree.mjs",
  "tui-stream.mjs",
  "tokenizer.mjs",
  "mcp-startup.mjs",
  "sandbox-startup.mjs",
];

console.log(`Marvin benchmarks — node ${process.version}, ${process.platform}/${process.arch}\n`);
await runCoreBenchmarks();
for (const script of SCRIPTS) {
  const path = join(REPO_ROOT, "bench", script);
  if (!existsSync(path)) continue;
  console.log(`\n# ${script}`);
  const result = spawnSync(process.execPath, [path], { stdio: "inherit" });
  if (result.status !== 0) console.log(`${script} failed (exit ${result.status})`);
}
