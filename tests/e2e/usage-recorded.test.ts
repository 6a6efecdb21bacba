import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "../support/fixtures.js";
import { waitFor } from "../support/processes.js";
import { MARVIN_BIN, serverEnv } from "../support/run-marvin.js";

describe("usage.json records the session however it ends", () => {
  for (const signal of ["SIGTERM", "SIGHUP"] as const) {
    test(`the plain UI ended by ${signal} adds what it spent`, async ({ llm, home }) => {
      const server = await llm([{ text: "Hello there.", usage: { prompt: 1_000, completion: 10 } }]);
      const child = spawn(process.execPath, [MARVIN_BIN, "--plain"], {
        env: serverEnv(server.url, home) as NodeJS.ProcessEnv,
        cwd: home,
        stdio: ["pipe", "pipe", "pipe"],
      });
      let stdout = "";
      child.stdout.setEncoding("utf8").on("data", (data: string) => (stdout += data));
      const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
      try {
        child.stdin.write("hi\n"); // stdin stays open: the session waits for the next line
        await waitFor(() => stdout.includes("Hello there."), 10_000);
        child.kill(signal);
        expect(await exited).toBe(0);
      } finally {
        child.kill("SIGKILL");
      }
      const usage = JSON.parse(readFileSync(join(home, ".config", "local-finder", "usage.json"), "utf8"));
      expect(usage).toMatchObject({ sessions: 1, llm_turns: 1, input_tokens: { "gpt-4o-mini": 1_000 } });
    });
  }

  test("a non-interactive run ended by SIGHUP in the middle of a tool adds what it spent", async ({ llm, home }) => {
    const server = await llm([
      {
        toolCalls: [{ name: "run_command", arguments: { command: "echo started; sleep 30", timeout: 60 } }],
        usage: { prompt: 1_000, completion: 10 },
      },
    ]);
    const child = spawn(process.execPath, [MARVIN_BIN, "--non-interactive", "--working-dir", home, "--prompt", "go"], {
      env: serverEnv(server.url, home, { MARVIN_SANDBOX: "off" }) as NodeJS.ProcessEnv,
      cwd: home,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (data: string) => (stdout += data));
    child.stderr.setEncoding("utf8").on("data", (data: string) => (stderr += data));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    try {
      await waitFor(() => stdout.includes("run_command"), 10_000);
      child.kill("SIGHUP");
      expect(await exited).toBe(1);
    } finally {
      child.kill("SIGKILL");
    }
    expect(stderr.trim().split("\n").at(-1)).toMatch(/^MARVIN_COST:\{"session_cost":[\d.]+,"llm_turns":1,/);
    const usage = JSON.parse(readFileSync(join(home, ".config", "local-finder", "usage.json"), "utf8"));
    expect(usage).toMatchObject({ sessions: 1, llm_turns: 1, tool_calls: { run_command: 1 } });
  });
});
