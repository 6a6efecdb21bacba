import { formatDuration } from "../../../shared/duration.js";
import type { Timers } from "../../kit/tool-services.js";

interface Timer {
  name: string;
  startedAt: number;
  /** Countdown length; undefined for a stopwatch. */
  durationMs?: number;
  alarm?: NodeJS.Timeout;
}

/** In-memory countdowns and stopwatches of one session (seed 000 §2.8 timers). */
export class TimerStore implements Timers {
  private readonly timers = new Map<string, Timer>();

  constructor(
    private readonly onFinished: (name: string) => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {}

  start(name: string, durationSeconds: number): string {
    if (this.timers.has(name))
      throw new Error(`A timer named '${name}' is already running. Stop it with timer_stop or choose another name.`);
    const timer: Timer = { name, startedAt: this.now() };
    this.timers.set(name, timer);
    if (durationSeconds > 0) {
      timer.durationMs = durationSeconds * 1000;
      timer.alarm = setTimeout(() => this.onFinished(name), timer.durationMs);
      timer.alarm.unref();
      return `Countdown '${name}' started: ${formatDuration(timer.durationMs)}.`;
    }
    return `Stopwatch '${name}' started.`;
  }

  describe(name: string): string {
    const timer = this.timers.get(name);
    if (!timer) throw new Error(this.missing(name));
    return this.status(timer);
  }

  describeAll(): string {
    if (this.timers.size === 0) return "No timers are running.";
    return [...this.timers.values()].map((timer) => this.status(timer)).join("\n");
  }

  stop(name: string): string {
    const timer = this.timers.get(name);
    if (!timer) throw new Error(this.missing(name));
    clearTimeout(timer.alarm);
    this.timers.delete(name);
    const elapsed = this.now() - timer.startedAt;
    if (timer.durationMs === undefined) return `Stopwatch '${name}' stopped at ${formatDuration(elapsed)}.`;
    const finished = elapsed >= timer.durationMs;
    return finished
      ? `Countdown '${name}' stopped; it had finished ${formatDuration(elapsed - timer.durationMs)} ago (ran ` +
          `${formatDuration(timer.durationMs)}).`
      : `Countdown '${name}' stopped with ${formatDuration(timer.durationMs - elapsed)} left (ran ` +
          `${formatDuration(elapsed)}).`;
  }

  private status(timer: Timer): string {
    const elapsed = this.now() - timer.startedAt;
    if (timer.durationMs === undefined) return `Stopwatch '${timer.name}': ${formatDuration(elapsed)} elapsed.`;
    const left = timer.durationMs - elapsed;
    return left > 0
      ? `Countdown '${timer.name}': ${formatDuration(left)} left of ${formatDuration(timer.durationMs)}.`
      : `Countdown '${timer.name}': finished ${formatDuration(-left)} ago.`;
  }

  private missing(name: string): string {
    const names = [...this.timers.keys()];
    return (
      `No timer named '${name}'. ` +
      `${names.length ? `Running timers: ${names.join(", ")}.` : "No timers are running."}`
    );
  }

  /** Cancels pending alarms (session end). */
  clear(): void {
    for (const timer of this.timers.values()) clearTimeout(timer.alarm);
    this.timers.clear();
  }
}
