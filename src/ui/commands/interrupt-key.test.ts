import { describe, expect, it } from "vitest";
import { InterruptKey } from "./interrupt-key.js";

/** An InterruptKey over a piece of work that is running until it is stopped. */
function withWork(running: boolean) {
  const work = { running };
  const key = new InterruptKey(() => {
    const wasRunning = work.running;
    work.running = false;
    return wasRunning;
  });
  return { work, key };
}

describe("Ctrl+C (InterruptKey)", () => {
  it("twice while an answer streams: the first stops it, the second only shows the hint", () => {
    const { work, key } = withWork(true);
    expect(key.press("")).toBe("stopped");
    expect(work.running).toBe(false);
    expect(key.press("")).toBe("hint");
    expect(key.press("")).toBe("exit");
  });

  it("clears a typed line, and exits only after two presses in a row on an empty prompt", () => {
    const { key } = withWork(false);
    expect(key.press("half typed")).toBe("clear");
    expect(key.press("")).toBe("hint");
    key.reset(); // another key in between
    expect(key.press("")).toBe("hint");
    expect(key.press("")).toBe("exit");
  });

  it("stopping work or clearing a line in between asks again", () => {
    const { work, key } = withWork(false);
    expect(key.press("")).toBe("hint");
    work.running = true;
    expect(key.press("")).toBe("stopped");
    expect(key.press("")).toBe("hint");
    expect(key.press("typed")).toBe("clear");
    expect(key.press("")).toBe("hint");
  });

  it("with no prompt on screen it only stops work", () => {
    const { key } = withWork(false);
    expect(key.press(undefined)).toBe("ignored");
    expect(key.press(undefined)).toBe("ignored");
    expect(key.press("")).toBe("hint");
  });
});
