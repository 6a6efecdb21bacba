import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "../support/fixtures.js";
import type { RecordedRequest } from "../support/llm-server.js";
import { runMarvin, serverEnv } from "../support/run-marvin.js";

const toolResults = (request: RecordedRequest) =>
  request.body.messages.filter((message) => message.role === "tool").map((message) => message.content ?? "");

const NO_BWRAP_WARNING =
  "Commands run without a sandbox: bwrap is not installed (package bubblewrap: apt install bubblewrap). Install it " +
  "to keep commands inside the working dir, or set MARVIN_SANDBOX=off to run them unconfined without this warning.";

/** A folder with bash and touch, and not bwrap, for PATH. */
function binWithoutBwrap(home: string): string {
  const bin = join(home, "bin");
  mkdirSync(bin);
  for (const program of ["bash", "touch"])
    symlinkSync(execFileSync("which", [program], { encoding: "utf8" }).trim(), join(bin, program));
  return bin;
}

describe("the command sandbox, through the built marvin", () => {
  test("a non-interactive run writes in the project, and the sandbox stops a write beside it", async ({
    llm,
    home,
  }) => {
    const project = join(home, "project");
    mkdirSync(project);
    execFileSync("git", ["init", "-q", project]);
    const server = await llm([
      { toolCalls: [{ name: "run_command", arguments: { command: "touch inside.txt && touch ../beside.txt" } }] },
      { text: "Done." },
    ]);
    const run = await runMarvin(["--non-interactive", "--working-dir", project, "--prompt", "touch two files"], {
      env: serverEnv(server.url, home),
      cwd: home,
    });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("sandbox");
    const [result] = toolResults(server.requests[1]!);
    expect(result).toMatch(/^Exit code: 1 \(\ds\)\ntouch: cannot touch '..\/beside.txt': Read-only file system\n/);
    expect(result).toMatch(/\nSandbox: only \S+ and \$TMPDIR are writable/);
    expect(existsSync(join(project, "inside.txt"))).toBe(true);
    expect(existsSync(join(home, "beside.txt"))).toBe(false);
  });

  test("without bwrap a non-interactive run warns once and still runs commands; require refuses them", async ({
    llm,
    home,
  }) => {
    const project = join(home, "project");
    mkdirSync(project);
    const bin = binWithoutBwrap(home);
    const touchTwice = [
      { toolCalls: [{ name: "run_command", arguments: { command: "touch ../one.txt" } }] },
      { toolCalls: [{ name: "run_command", arguments: { command: "touch ../two.txt" } }] },
      { text: "Done." },
    ];
    const server = await llm(touchTwice);
    const unconfined = await runMarvin(["--non-interactive", "--working-dir", project, "--prompt", "touch"], {
      env: { ...serverEnv(server.url, home), PATH: bin },
      cwd: home,
    });
    expect(unconfined.code).toBe(0);
    expect(unconfined.stderrLines.filter((line) => line.includes("sandbox"))).toEqual([NO_BWRAP_WARNING]);
    expect([existsSync(join(home, "one.txt")), existsSync(join(home, "two.txt"))]).toEqual([true, true]);

    const refusing = await llm([touchTwice[0]!, { text: "Refused." }]);
    const required = await runMarvin(["--non-interactive", "--working-dir", project, "--prompt", "touch"], {
      env: { ...serverEnv(refusing.url, home), PATH: bin, MARVIN_SANDBOX: "require" },
      cwd: home,
    });
    expect(required.stderrLines).toContain(
      "Commands are refused: MARVIN_SANDBOX=require, but bwrap is not installed (package bubblewrap: apt install " +
        "bubblewrap).",
    );
    expect(toolResults(refusing.requests[1]!)[0]).toContain("Commands are refused: MARVIN_SANDBOX=require");
    expect(existsSync(join(home, "one.txt"))).toBe(true);
  });
});
