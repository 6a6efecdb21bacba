// Token counting on worst-case input, through the built token counter (dist/): one long run
// of one character (quadratic in the old counter), random text, and the cold start.
// Target: 5 MB of one repeated character counted in under 100 ms.
// Run: npm run build && node bench/tokenizer.mjs
import { spawnSync } from "node:child_process";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

const COUNTER = new URL("../dist/providers/token-counter.js", import.meta.url);
const MB = 1024 * 1024;
const TARGET_MS = 100;

/** Deterministic pseudo-random text over `alphabet`. */
function randomText(length, alphabet) {
  let seed = 12345;
  const chars = new Array(length);
  for (let index = 0; index < length; index++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    chars[index] = alphabet[seed % alphabet.length];
  }
  return chars.join("");
}

const line = (label, ms, extra = "") => console.log(`${label.padEnd(46)} ${ms.toFixed(1).padStart(8)} ms${extra}`);

/** Cold start in a fresh process: import the counter, then count a short text. */
function coldFirstCount() {
  const script =
    `const started = performance.now(); const m = await import(${JSON.stringify(COUNTER.href)});` +
    `await m.countTextTokens("hello world"); console.log(performance.now() - started);`;
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`cold start run failed: ${result.stderr}`);
  return Number(result.stdout.trim());
}

const cold = coldFirstCount();
const { countTextTokens, truncateToTokens } = await import(COUNTER.href);

/** Time of one count, plus the longest the event loop was kept waiting meanwhile. */
async function timed(run) {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const started = performance.now();
  const value = await run();
  const elapsed = performance.now() - started;
  delay.disable();
  return { value, elapsed, stall: delay.max / 1e6 };
}

console.log(`counting with ${fileURLToPath(COUNTER)}`);
line("cold: import + load tokenizer + first count", cold);
await countTextTokens("warm up");

const cases = [
  ["5 MB of one repeated character ('A')", "A".repeat(5 * MB), TARGET_MS],
  ["5 MB of random text (words, punctuation)", randomText(5 * MB, "abcdefghij klmnopqrst uvwxyz ABC .,;:!?()\n01234")],
  ["5 MB of random lowercase, no spaces", randomText(5 * MB, "abcdefghijklmnopqrstuvwxyz")],
  ["300 KB run of '='", "=".repeat(300 * 1024)],
];
for (const [label, text, target] of cases) {
  const { value, elapsed, stall } = await timed(() => countTextTokens(text));
  const verdict = target ? `  (target < ${target} ms: ${elapsed < target ? "met" : "MISSED"})` : "";
  const figures = `${value.toLocaleString("en-US")} tokens, longest event-loop stall ${stall.toFixed(0)} ms`;
  line(label, elapsed, `  ${figures}${verdict}`);
}
const lowercase = randomText(5 * MB, "abcdefghijklmnopqrstuvwxyz");
const truncated = await timed(() => truncateToTokens(lowercase, 25_000));
const kept = truncated.value.length.toLocaleString("en-US");
line("truncate 5 MB random lowercase to 25K tokens", truncated.elapsed, `  ${kept} characters kept`);
