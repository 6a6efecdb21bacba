import { test as base, describe, expect } from "../../../../tests/support/fixtures.js";
import type { ToolHarness } from "../../../../tests/support/tool-harness.js";
import type { AgentEvent } from "../../../agent/events.js";
import { TimerStore } from "./timer-store.js";

/** A session with every tool over `home`. */
const test = base.extend<{ harness: ToolHarness }>({
  harness: async ({ harnesses, home }, use) => use(await harnesses.open({ home })),
});

describe("timer tools", () => {
  test("starts stopwatches and countdowns, checks and stops them", async ({ harness }) => {
    const { call } = harness;
    expect(await call("timer_start", { name: "run" })).toEqual({ isError: false, result: "Stopwatch 'run' started." });
    expect((await call("timer_start", { name: "tea", duration_seconds: 180 })).result).toBe(
      "Countdown 'tea' started: 3m 00s.",
    );
    expect((await call("timer_check", { name: "run" })).result).toBe("Stopwatch 'run': 0s elapsed.");
    expect((await call("timer_check", {})).result).toMatch(
      /^Stopwatch 'run': 0s elapsed\.\nCountdown 'tea': (3m 00s|2m 59s) left of 3m 00s\.$/,
    );
    expect((await call("timer_stop", { name: "tea" })).result).toMatch(
      /^Countdown 'tea' stopped with (3m 00s|2m 59s) left \(ran 0s\)\.$/,
    );
    expect((await call("timer_stop", { name: "run" })).result).toBe("Stopwatch 'run' stopped at 0s.");
    expect((await call("timer_check", {})).result).toBe("No timers are running.");
  });

  test("refuses a second timer with the same name", async ({ harness }) => {
    await harness.call("timer_start", { name: "eggs", duration_seconds: 300 });
    const outcome = await harness.call("timer_start", { name: "eggs" });
    expect(outcome).toEqual({
      isError: true,
      result:
        "Error in timer_start: A timer named 'eggs' is already running. Stop it with timer_stop or choose " +
        "another name.",
    });
  });

  test("names the running timers when asked about an unknown one", async ({ harness }) => {
    await harness.call("timer_start", { name: "eggs", duration_seconds: 300 });
    expect(await harness.call("timer_stop", { name: "egs" })).toEqual({
      isError: true,
      result: "Error in timer_stop: No timer named 'egs'. Running timers: eggs.",
    });
    expect((await harness.call("timer_check", { name: "x" })).result).toBe(
      "Error in timer_check: No timer named 'x'. Running timers: eggs.",
    );
  });

  test("rejects a negative duration", async ({ harness }) => {
    const outcome = await harness.call("timer_start", { name: "back", duration_seconds: -5 });
    expect(outcome.isError).toBe(true);
    expect(outcome.result).toContain("- duration_seconds:");
  });

  test("tells the session when a countdown is done", async ({ harness }) => {
    const events: AgentEvent[] = [];
    harness.session.subscribe((event) => events.push(event));
    await harness.call("timer_start", { name: "quick", duration_seconds: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(events).toContainEqual({ type: "notice", level: "info", text: "⏰ Timer 'quick' is done." });
  });
});

describe("TimerStore arithmetic (clock injected)", () => {
  test("reports elapsed and remaining time, and finished countdowns", () => {
    let now = 1_000_000;
    const store = new TimerStore(
      () => undefined,
      () => now,
    );
    store.start("pasta", 600);
    store.start("lap", 0);
    now += 125_000;
    expect(store.describe("pasta")).toBe("Countdown 'pasta': 7m 55s left of 10m 00s.");
    expect(store.describe("lap")).toBe("Stopwatch 'lap': 2m 05s elapsed.");
    now += 3_600_000;
    expect(store.describe("pasta")).toBe("Countdown 'pasta': finished 52m 05s ago.");
    expect(store.stop("pasta")).toBe("Countdown 'pasta' stopped; it had finished 52m 05s ago (ran 10m 00s).");
    expect(store.stop("lap")).toBe("Stopwatch 'lap' stopped at 1h 02m 05s.");
    store.clear();
  });
});
