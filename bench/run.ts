// `npm run bench [-- NAME]`: every part (or the one named), each in a process of its own with a time limit,
// then one line per target, met or missed.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { tempDir } from "../tests/support/run-marvin.js";
import { PARTS, type Part } from "./parts.js";
import { type PartFailure, TARGETS_FILE_VARIABLE, type TargetOutcome } from "./stats.js";

/** The whole run stays within this, so that `npm run bench`, build included, ends within 10 minutes. */
const BUDGET_SECONDS = 390;
const PART_SCRIPT = join(fileURLToPath(new URL(".", import.meta.url)), "part.js");

/**
 * Runs `part` in a child process of its own group. Past `limitSeconds` it is asked to stop (it then says what it
 * was waiting for) and, a few seconds later, killed with all it started.
 */
async function runPart(part: Part, targetsFile: string, limitSeconds: number): Promise<string | undefined> {
  const child = spawn(process.execPath, [PART_SCRIPT, part.name], {
    stdio: "inherit",
    detached: true,
    env: { ...process.env, [TARGETS_FILE_VARIABLE]: targetsFile, MARVIN_BENCH_PART: part.name },
  });
  const killGroup = () => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // Nothing of the group is left.
    }
  };
  let stopped = false;
  let killTimer: NodeJS.Timeout | undefined;
  const limitTimer = setTimeout(() => {
    stopped = true;
    child.kill("SIGTERM");
    killTimer = setTimeout(killGroup, 3_000);
  }, limitSeconds * 1000);
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  clearTimeout(limitTimer);
  clearTimeout(killTimer);
  killGroup(); // whatever the part started and left running
  if (stopped) return `did not finish within its limit of ${limitSeconds} s`;
  return code === 0 ? undefined : `failed (exit ${code})`;
}

/** The closing lines: each target of each part, met, missed, or not measured and why. */
function closingLines(parts: Part[], outcomes: TargetOutcome[], failures: Map<string, string>): string[] {
  return parts.flatMap((part) =>
    part.targets.map((name) => {
      const outcome = outcomes.find((each) => each.part === part.name && each.name === name);
      const label = `${part.name}: ${name}`;
      if (!outcome) return `NOT MEASURED  ${label} (${failures.get(part.name) ?? "the part did not report it"})`;
      return `${outcome.met ? "met          " : "MISSED       "} ${label}: ${outcome.figure} (target ${outcome.text})`;
    }),
  );
}

const wanted = process.argv[2];
const parts = wanted === undefined ? PARTS : PARTS.filter((part) => part.name === wanted);
if (parts.length === 0) {
  console.error(`There is no benchmark part "${wanted}". The parts:`);
  for (const part of PARTS) console.error(`  ${part.name.padEnd(12)} ${part.about}`);
  process.exit(2);
}

console.log(`Marvin benchmarks — node ${process.version}, ${process.platform}/${process.arch}`);
const started = performance.now();
const scratch = tempDir("marvin-bench-run-");
const targetsFile = join(scratch.path, "targets.jsonl");
const failures = new Map<string, string>();
try {
  for (const part of parts) {
    console.log(`\n# ${part.name}: ${part.about}`);
    const left = BUDGET_SECONDS - (performance.now() - started) / 1000;
    const failure =
      left < 5
        ? `not run: the run's ${BUDGET_SECONDS} s were spent`
        : await runPart(part, targetsFile, Math.min(part.limitSeconds, Math.floor(left)));
    if (failure) {
      failures.set(part.name, failure);
      console.log(`${part.name} ${failure}`);
    }
  }
  const recorded = existsSync(targetsFile)
    ? readFileSync(targetsFile, "utf8")
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as TargetOutcome | PartFailure)
    : [];
  // A part's own account of its failure says more than its exit code.
  for (const entry of recorded) if ("failure" in entry) failures.set(entry.part, entry.failure);
  const outcomes = recorded.filter((entry): entry is TargetOutcome => "met" in entry);
  console.log(`\nTargets (${((performance.now() - started) / 1000).toFixed(0)} s):`);
  for (const line of closingLines(parts, outcomes, failures)) console.log(line);
  if (failures.size > 0) process.exitCode = 1;
} finally {
  scratch.cleanup();
}
