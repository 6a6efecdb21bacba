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

/** Why a part ended without reporting all its targets. */
export interface PartFailure {
  part: string;
  failure: string;
}

/** Where a part records its targets (and its failure) for the runner; set by the runner for each part. */
export const TARGETS_FILE_VARIABLE = "MARVIN_BENCH_TARGETS";

function record(entry: TargetOutcome | PartFailure): void {
  const file = process.env[TARGETS_FILE_VARIABLE];
  if (file) appendFileSync(file, `${JSON.stringify(entry)}\n`);
}

/** Says why the part failed, for the runner's closing lines. */
export function recordFailure(message: string): void {
  record({ part: process.env.MARVIN_BENCH_PART ?? "", failure: message });
}

/** One result line: name, figure, and the target with whether it is met (recorded for the runner's summary). */
export function report(name: string, figure: string, target?: Target): void {
  const verdict = target ? `  (target ${target.text}: ${target.met ? "met" : "MISSED"})` : "";
  console.log(`${name.padEnd(46)} ${figure}${verdict}`);
  if (target) record({ part: process.env.MARVIN_BENCH_PART ?? "", name: name.trim(), figure, ...target });
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
