import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "../../../../tests/support/fixtures.js";
import { cronDaemonRunning } from "./delivery.js";

describe("cronDaemonRunning", () => {
  test("finds a running process named cron in /proc", async ({ tempDirs }) => {
    // Debian's daemon is /usr/sbin/cron; a program of that name stands in for it while this test runs.
    const bin = await tempDirs.make("marvin-cron-");
    copyFileSync("/bin/sleep", join(bin, "cron"));
    const daemon = spawn(join(bin, "cron"), ["30"], { stdio: "ignore" });
    try {
      await new Promise((resolve) => daemon.once("spawn", resolve));
      expect(await cronDaemonRunning()).toBe(true);
    } finally {
      daemon.kill();
    }
  });

  test("reads process names: true for cron or crond only; undefined without a /proc", async ({ tempDirs }) => {
    const proc = await tempDirs.make("marvin-proc-");
    const process = (pid: string, name: string) => {
      mkdirSync(join(proc, pid));
      writeFileSync(join(proc, pid, "comm"), `${name}\n`);
    };
    process("1", "systemd");
    process("88", "cronjob-helper");
    mkdirSync(join(proc, "sys"));
    expect(await cronDaemonRunning(proc)).toBe(false);
    process("412", "crond");
    expect(await cronDaemonRunning(proc)).toBe(true);
    expect(await cronDaemonRunning(join(proc, "missing"))).toBeUndefined();
  });
});
