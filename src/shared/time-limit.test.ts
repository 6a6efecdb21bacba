import { describe, expect, test } from "vitest";
import { sleep } from "./sleep.js";
import { raceTimeLimit } from "./time-limit.js";

describe("raceTimeLimit", () => {
  test("gives the work's value when it settles in time", async () => {
    expect(
      await raceTimeLimit(
        sleep(5).then(() => "done"),
        1000,
        () => "late",
      ),
    ).toBe("done");
  });

  test("gives what timeUp returns when the work is too slow", async () => {
    expect(
      await raceTimeLimit(
        sleep(1000).then(() => "done"),
        20,
        () => "late",
      ),
    ).toBe("late");
  });

  test("rejects with what timeUp throws, and with the work's own failure", async () => {
    const tooSlow = raceTimeLimit(sleep(1000), 20, () => {
      throw new Error("no answer");
    });
    await expect(tooSlow).rejects.toThrow("no answer");
    await expect(raceTimeLimit(Promise.reject(new Error("broken")), 1000, () => "late")).rejects.toThrow("broken");
  });
});
