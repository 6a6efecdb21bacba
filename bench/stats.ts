import { appendFileSync } from "node:fs";

/** Small helpers for benchmark figures and their targets. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

export const ms = (value: number) => `${value.toFixed(1)} ms`;

export interface Target {
  text: string;
  met: boolean;
}

/** One target's outcome, as the runner gathers them for its closing lines (run.ts). */
export interface TargetOutcome extends Target {
  part: string;
  name: string;
  figure: string;
}

/** Where a part records its targets for the runner; set by the runner in each part's environment. */
export const TARGETS_FILE_VARIABLE = "MARVIN_BENCH_TARGETS";

/** One result line: name, figure, and the target with whether it is met (recorded for the runner's summary). */
export function report(name: string, figure: string, target?: Target): void {
  const verdict = target ? `  (target ${target.text}: ${target.met ? "met" : "MISSED"})` : "";
  console.log(`${name.padEnd(46)} ${figure}${verdict}`);
  const file = process.env[TARGETS_FILE_VARIABLE];
  if (!target || !file) return;
  const outcome: TargetOutcome = { part: process.env.MARVIN_BENCH_PART ?? "", name: name.trim(), figure, ...target };
  appendFileSync(file, `${JSON.stringify(outcome)}\n`);
}

/**
 * A figure against its baseline from the same run: `value` is at most `limit` times `baseline`. Both absolute
 * figures are printed for the record; only the ratio is judged.
 */
export function reportRatio(name: string, value: number, baseline: { label: string; value: number }, limit: number) {
  const ratio = value / baseline.value;
  const figure = `${ratio.toFixed(2)}× (${ms(value)}; ${baseline.label} ${ms(baseline.value)})`;
  report(name, figure, { text: `≤ ${limit}×`, met: ratio <= limit });
}
