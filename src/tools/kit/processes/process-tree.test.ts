import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { killLeftovers, running, waitFor } from "../../../../tests/support/processes.js";
import { sandboxedPid } from "./process-tree.js";

/** The children of `pid`, as /proc lists them. */
function childrenOf(pid: number): number[] {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
}

describe("sandboxedPid", () => {
  it("knows bwrap's init and its command by their pids inside, also once bwrap is gone", async () => {
    const leftovers: number[] = [];
    try {
      const bwrap = spawn("bwrap", ["--ro-bind", "/", "/", "--proc", "/proc", "--unshare-pid", "--", "sleep", "34.5"], {
        stdio: "ignore",
      });
      await waitFor(() => childrenOf(bwrap.pid!).length === 1 && childrenOf(childrenOf(bwrap.pid!)[0]!).length === 1);
      const init = childrenOf(bwrap.pid!)[0]!;
      const command = childrenOf(init)[0]!;
      leftovers.push(init, command);
      // When bwrap exits before its init (as it may when the command ends), the init is re-parented.
      bwrap.kill("SIGKILL");
      await waitFor(() => !running(bwrap.pid!));
      expect(running(init)).toBe(true);
      expect([sandboxedPid(init), sandboxedPid(command)]).toEqual([1, 2]);
      expect(sandboxedPid(process.pid)).toBeUndefined();
      expect(sandboxedPid(bwrap.pid!)).toBeUndefined();
    } finally {
      killLeftovers(leftovers);
    }
  });
});
