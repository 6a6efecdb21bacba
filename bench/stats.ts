/** Small helpers for printing benchmark figures. */
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

/** One result line: name, figure, target, and whether the target is met. */
export function report(name: string, figure: string, target?: { text: string; met: boolean }): void {
  const verdict = target ? `  (target ${target.text}: ${target.met ? "met" : "MISSED"})` : "";
  console.log(`${name.padEnd(38)} ${figure}${verdict}`);
}
