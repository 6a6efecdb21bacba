import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { withDeadline } from "./deadline.js";
import { sleep } from "./sleep.js";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

describe("withDeadline", () => {
  it("aborts with a TimeoutError after its time, even when garbage is collected meanwhile", async () => {
    const { signal } = withDeadline(new AbortController().signal, 60);
    for (let round = 0; round < 8 && !signal.aborted; round++) {
      collectGarbage();
      await sleep(25);
    }
    expect(signal.aborted).toBe(true);
    expect((signal.reason as DOMException).name).toBe("TimeoutError");
  });

  it("aborts at once with the outer signal's reason", () => {
    const outer = new AbortController();
    const { signal, clear } = withDeadline(outer.signal, 10_000);
    outer.abort(new Error("cancelled by the user"));
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toBe("cancelled by the user");
    clear();
  });

  it("never fires once cleared", async () => {
    const { signal, clear } = withDeadline(undefined, 20);
    clear();
    await sleep(50);
    expect(signal.aborted).toBe(false);
  });
});
