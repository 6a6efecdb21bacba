// Token counting on worst-case input, through the built token counter (dist/): one long run of one character
// (quadratic in an old counter) against random text of the same size, counted in turns, and the cold start.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { REPO_ROOT } from "../tests/support/run-marvin.js";
import { builtModule } from "./built.js";
import { alternate } from "./limits.js";
import { median, ms, report, reportRatio } from "./stats.js";

type Counter = typeof import("../src/providers/token-counter.js");
const COUNTER = "providers/token-counter.js";
const MB = 1024 * 1024;

/** Deterministic pseudo-random text over `alphabet`. */
function randomText(length: number, alphabet: string): string {
  let seed = 12345;
  const chars = new Array<string>(length);
  for (let index = 0; index < length; index++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    chars[index] = alphabet[seed % alphabet.length]!;
  }
  return chars.join("");
}

/** Cold start in a fresh process: import the counter, then count a short text. */
function coldFirstCount(): number {
  const href = pathToFileURL(join(REPO_ROOT, "dist", COUNTER)).href;
  const script =
    `const started = performance.now(); const m = await import(${JSON.stringify(href)});` +
    `await m.countTextTokens("hello world"); console.log(performance.now() - started);`;
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    encoding: "utf8",
    timeout: 20_000,
  });
  if (result.status !== 0) throw new Error(`cold start run failed: ${result.error?.message ?? result.stderr}`);
  return Number(result.stdout.trim());
}

/** Time of one count, plus the longest the event loop was kept waiting meanwhile. */
async function timed<T>(run: () => Promise<T>): Promise<{ value: T; elapsed: number; stall: number }> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const started = performance.now();
  const value = await run();
  const elapsed = performance.now() - started;
  delay.disable();
  return { value, elapsed, stall: delay.max / 1e6 };
}

export async function tokenizer(): Promise<void> {
  report("cold: import + load tokenizer + first count", ms(coldFirstCount()));
  const { countTextTokens, truncateToTokens } = await builtModule<Counter>(COUNTER);
  await countTextTokens("warm up");
  const cases: Array<[string, string]> = [
    [
      "5 MB of random text (words, punctuation)",
      randomText(5 * MB, "abcdefghij klmnopqrst uvwxyz ABC .,;:!?()\n01234"),
    ],
    ["5 MB of random lowercase, no spaces", randomText(5 * MB, "abcdefghijklmnopqrstuvwxyz")],
    ["300 KB run of '='", "=".repeat(300 * 1024)],
  ];
  for (const [label, text] of cases) {
    const { value, elapsed, stall } = await timed(() => countTextTokens(text));
    report(label, `${ms(elapsed)}, ${value.toLocaleString("en-US")} tokens, longest event-loop stall ${ms(stall)}`);
  }
  const lowercase = cases[1]![1];
  const truncated = await timed(() => truncateToTokens(lowercase, 25_000));
  const kept = truncated.value.length.toLocaleString("en-US");
  report("truncate 5 MB random lowercase to 25K tokens", `${ms(truncated.elapsed)}, ${kept} characters kept`);

  const run = "A".repeat(5 * MB);
  const words = cases[0]![1];
  const times = await alternate(3, {
    words: async () => (await timed(() => countTextTokens(words))).elapsed,
    run: async () => (await timed(() => countTextTokens(run))).elapsed,
  });
  const baseline = { label: "5 MB of random text", value: median(times.words) };
  reportRatio("5 MB of one repeated character", median(times.run), baseline, 0.5);
}
