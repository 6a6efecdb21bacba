import { existsSync, readFileSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { test as base, describe, expect } from "../../../../tests/support/fixtures.js";
import { running as alive, killLeftovers, waitFor } from "../../../../tests/support/processes.js";
import { SECRET_SAMPLES } from "../../../../tests/support/secrets.js";
import type { ToolHarness, ToolHarnessOptions } from "../../../../tests/support/tool-harness.js";
import { createToolRegistry } from "../../index.js";

const test = base.extend<{
  /** The test's temp folder: the home, and proj/ (the working dir). */
  root: string;
  project: string;
  /** A coding session in `project`. */
  harness: (options?: Partial<ToolHarnessOptions>) => Promise<ToolHarness>;
  /** Processes a test started, killed if a failed test left them running. */
  leftovers: number[];
}>({
  root: async ({ tempDirs }, use) => use(await tempDirs.make("marvin-shell-")),
  project: async ({ root }, use) => {
    await mkdir(join(root, "proj"));
    await use(join(root, "proj"));
  },
  // Outside the sandbox, as with MARVIN_SANDBOX=off (run-command-sandbox.test.ts runs the same inside it).
  harness: async ({ harnesses, root, project }, use) =>
    use((options = {}) =>
      harnesses.open({
        home: root,
        workingDir: project,
        codingMode: true,
        ...options,
        env: { MARVIN_SANDBOX: "off", ...options.env },
      }),
    ),
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern.
  leftovers: async ({}, use) => {
    const pids: number[] = [];
    await use(pids);
    killLeftovers(pids);
  },
});

describe("run_command", () => {
  test("runs in the working dir and reports the exit code with stdout and stderr interleaved", async ({
    project,
    harness,
  }) => {
    const tools = await harness();
    const outcome = await tools.call("run_command", { command: "pwd; echo one; echo two >&2; echo three" });
    expect(outcome.isError).toBe(false);
    expect(outcome.result).toMatch(/^Exit code: 0 \(\ds\)\n/);
    expect(outcome.result.split("\n").slice(1)).toEqual([project, "one", "two", "three"]);
    expect((await tools.call("run_command", { command: "echo failing >&2; exit 3" })).result).toMatch(
      /^Exit code: 3 \(\ds\)\nfailing$/,
    );
    expect((await tools.call("run_command", { command: "true" })).result).toMatch(/\n\(no output\)$/);
  });

  test("reports its output as it streams, batched, before the call returns", async ({ harness }) => {
    const tools = await harness();
    const outcome = await tools.call("run_command", { command: "echo first; sleep 0.6; echo second; echo last" });
    expect(outcome.result).toMatch(/^Exit code: 0/);
    const outputs = tools.progress.map((update) => update.output);
    expect(outputs.length).toBeGreaterThanOrEqual(2);
    expect(outputs[0]).toBe("first\n");
    expect(outputs.join("")).toBe("first\nsecond\nlast\n");
    expect(tools.progress.at(-1)!.message).toBe("last");
  });

  test("starts the command without any API key, token or password of the session's environment", async ({
    harness,
  }) => {
    const tools = await harness({ env: { ...SECRET_SAMPLES, MARVIN_DEPTH: "1" } });
    const result = (await tools.call("run_command", { command: "env" })).result;
    const names = result
      .split("\n")
      .slice(1)
      .map((line) => line.split("=")[0]);
    expect(names).toEqual(expect.arrayContaining(["PATH", "HOME", "MARVIN_DEPTH"]));
    for (const [name, value] of Object.entries(SECRET_SAMPLES)) {
      expect(names).not.toContain(name);
      expect(result).not.toContain(value);
    }
  });

  test("kills the whole process group, grandchildren included, when the timeout passes", async ({
    project,
    harness,
    leftovers,
  }) => {
    const tools = await harness();
    const started = Date.now();
    const outcome = await tools.call("run_command", {
      command: "bash -c 'sleep 30' & echo $! > inner.pid; sleep 30 & echo $! > grandchild.pid; echo waiting; wait",
      timeout: 1,
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(outcome.result).toBe(
      "Timed out after 1s: killed the command's 3 processes (every one Marvin found); none is still running. Raise " +
        "timeout (seconds) if it needs longer, or run it in the background with output to a file.\nwaiting",
    );
    for (const file of ["inner.pid", "grandchild.pid"]) {
      const pid = Number(await readFile(join(project, file), "utf8"));
      leftovers.push(pid);
      await waitFor(() => !alive(pid));
    }
  });

  test("also kills, at the timeout, processes that left the process group (setsid), even once orphaned", async ({
    project,
    harness,
    leftovers,
  }) => {
    const tools = await harness();
    const command =
      "setsid sleep 300 & echo $! > setsid.pid; " +
      "(setsid sleep 301 > /dev/null 2>&1 & echo $! > orphan.pid); " +
      "env -i /bin/sh -c 'exec setsid sleep 302' & echo $! > bare.pid; " +
      "echo started; sleep 30";
    const outcome = await tools.call("run_command", { command, timeout: 1 });
    const pids = await Promise.all(
      ["setsid.pid", "orphan.pid", "bare.pid"].map(async (file) => Number(await readFile(join(project, file), "utf8"))),
    );
    leftovers.push(...pids);
    expect(outcome.result).toBe(
      "Timed out after 1s: killed the command's 4 processes (every one Marvin found); none is still running. Raise " +
        "timeout (seconds) if it needs longer, or run it in the background with output to a file.\nstarted",
    );
    for (const pid of pids) expect(alive(pid), `pid ${pid}`).toBe(false);
  });

  test("kills the process group when the call is aborted", async ({ project, harness, leftovers }) => {
    const tools = await harness();
    const controller = new AbortController();
    const running = createToolRegistry().execute(
      "run_command",
      { command: "sleep 30 & echo $! > grandchild.pid; wait" },
      tools.session.toolContext(controller.signal),
    );
    await waitFor(
      () =>
        existsSync(join(project, "grandchild.pid")) &&
        readFileSync(join(project, "grandchild.pid"), "utf8").trim() !== "",
    );
    const pid = Number(readFileSync(join(project, "grandchild.pid"), "utf8"));
    leftovers.push(pid);
    controller.abort(new Error("user pressed Esc"));
    expect(await running).toEqual({ isError: true, result: "Tool run_command was cancelled." });
    await waitFor(() => !alive(pid));
  });

  test("keeps the head and the tail of long output and says how much was cut", async ({ harness }) => {
    const tools = await harness();
    const result = (await tools.call("run_command", { command: "seq 1 200000" })).result;
    expect(result).toMatch(
      /^Exit code: 0 \(\ds\)\n\(output was 1288895 characters; the middle \d+ were cut\)\n1\n2\n3\n/,
    );
    expect(result).toContain("characters cut from the middle of the output …]");
    expect(result.endsWith("199999\n200000")).toBe(true);
    expect(result.length).toBeLessThan(31_000);
  });

  test(
    "returns when the shell exits, names what it left running in the background, and stops it when the " +
      "session ends",
    async ({ harness, leftovers }) => {
      const tools = await harness();
      const started = Date.now();
      const result = (
        await tools.call("run_command", { command: "sleep 300 & echo $!; setsid sleep 301 > /dev/null 2>&1 & echo $!" })
      ).result;
      const pids = result.split("\n").slice(1, 3).map(Number);
      leftovers.push(...pids);
      expect(Date.now() - started).toBeLessThan(3_000);
      const listed = [...pids]
        .sort((a, b) => a - b)
        .map((pid) => `pid ${pid} (sleep)`)
        .join(", ");
      expect(result.split("\n")[3]).toBe(
        `Note: still running in the background: ${listed}. Marvin stops them when it exits; its output is not ` +
          `captured. Redirect it to a file (cmd > out.log 2>&1 &) to see it.`,
      );
      expect(pids.map(alive)).toEqual([true, true]);
      await tools.close();
      expect(pids.map(alive)).toEqual([false, false]);
    },
  );

  test("asks for confirmation first and does not run a declined command", async ({ project, harness }) => {
    const asked: string[] = [];
    const tools = await harness({
      askApproval: async (question) => {
        asked.push(question.text);
        return "no";
      },
    });
    const outcome = await tools.call("run_command", { command: "touch created.txt" });
    expect(asked).toEqual(["Run `touch created.txt`?"]);
    expect(outcome.result).toBe(
      "The user declined to run this command: touch created.txt\nDo not run it again; ask the user what to do " +
        "instead, or take another approach.",
    );
    expect(existsSync(join(project, "created.txt"))).toBe(false);
  });

  test("explains a missing bash, a read-only agent, and gives the registry more time than the command", async ({
    root,
    harness,
  }) => {
    const emptyBin = join(root, "empty-bin");
    await mkdir(emptyBin);
    const noBash = await (await harness({ env: { PATH: emptyBin } })).call("run_command", { command: "ls" });
    expect(noBash).toEqual({
      isError: true,
      result:
        "Error in run_command: bash is not installed (or not on PATH), so commands cannot run. Install bash, or ask " +
        "the user to run the command.",
    });
    expect((await (await harness({ readonly: true })).call("run_command", { command: "ls" })).result).toContain(
      "read-only agent",
    );
    const definition = (await createToolRegistry().definition("run_command"))!;
    const limit = definition.timeoutMs as (args: { timeout: number }) => number;
    expect(limit({ timeout: 600 })).toBeGreaterThan(600_000);
  });
});
