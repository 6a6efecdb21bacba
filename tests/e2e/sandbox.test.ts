import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "../support/fixtures.js";
import type { RecordedRequest } from "../support/llm-server.js";
import { sendText } from "../support/local-http-server.js";
import { processesWith } from "../support/processes.js";
import { MARVIN_BIN, runMarvin, serverEnv } from "../support/run-marvin.js";

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

  test("a background job's private temp folder and processes are gone once marvin exits", async ({ llm, home }) => {
    const project = join(home, "project");
    const temp = join(home, "tmp");
    mkdirSync(project);
    mkdirSync(temp);
    const command = "sleep 100.25 >/dev/null 2>&1 & echo $TMPDIR > tmpdir.txt";
    const server = await llm([{ toolCalls: [{ name: "run_command", arguments: { command } }] }, { text: "Done." }]);
    const run = await runMarvin(["--non-interactive", "--working-dir", project, "--prompt", "sleep"], {
      env: { ...serverEnv(server.url, home), TMPDIR: temp },
      cwd: home,
    });
    expect(run.code).toBe(0);
    expect(toolResults(server.requests[1]!)[0]).toMatch(/\nNote: still running in the background: pid \d+ \(sleep\)/);
    expect(readFileSync(join(project, "tmpdir.txt"), "utf8")).toMatch(new RegExp(`^${temp}/marvin-sandbox-`));
    expect(readdirSync(temp)).toEqual([]);
    expect(processesWith("sleep 100.25")).toEqual([]);
  });

  test("a machine where bwrap cannot make a user namespace is said so, never sandboxed with capabilities", async ({
    llm,
    home,
  }) => {
    const project = join(home, "project");
    mkdirSync(project);
    const server = await llm([
      { toolCalls: [{ name: "run_command", arguments: { command: "grep CapEff /proc/self/status" } }] },
      { text: "Done." },
    ]);
    const args = ["--non-interactive", "--working-dir", project, "--prompt", "caps"];
    // Marvin in a user namespace that may not make another: what a system with them disabled is like.
    const stderr = await new Promise<string>((resolve) => {
      const jail = ["--dev-bind", "/", "/", "--unshare-user", "--disable-userns", "--"];
      execFile(
        "bwrap",
        [...jail, process.execPath, MARVIN_BIN, ...args],
        { env: serverEnv(server.url, home), cwd: home },
        (_error, _stdout, text) => resolve(text),
      );
    });
    expect(stderr).toMatch(/^Commands run without a sandbox: bwrap cannot make a sandbox on this machine \(bwrap: /m);
    expect(toolResults(server.requests[1]!)[0]).toMatch(/^Exit code: 0 .*\nCapEff:/s);
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

  test("settings not understood are said once and left at their defaults: no network, nothing asks", async ({
    llm,
    home,
    httpServers,
  }) => {
    const project = join(home, "project");
    mkdirSync(project);
    const listener = await httpServers.start((_request, response) => sendText(response, "hello"));
    const server = await llm([
      { toolCalls: [{ name: "run_command", arguments: { command: `curl -sS http://127.0.0.1:${listener.port}/` } }] },
      { text: "Done." },
    ]);
    const run = await runMarvin(["--non-interactive", "--working-dir", project, "--prompt", "fetch"], {
      env: serverEnv(server.url, home, { MARVIN_APPROVAL: "yolo", MARVIN_SANDBOX_NETWORK: "yes" }),
      cwd: home,
    });
    expect(run.code).toBe(0);
    expect(run.stderrLines.filter((line) => line.includes("not understood"))).toEqual([
      "MARVIN_SANDBOX_NETWORK=yes is not understood: use on or off. Commands get no network.",
      "MARVIN_APPROVAL=yolo is not understood: use ask, auto, never. Using never, as in every non-interactive run.",
    ]);
    expect(toolResults(server.requests[1]!)[0]).toMatch(/^Exit code: 7 .*\nSandbox: commands have no network/s);
    expect(listener.connections).toBe(0);
  });

  test("a MARVIN_SANDBOX not understood is said at start and refuses commands until it is set right", async ({
    llm,
    home,
  }) => {
    const project = join(home, "project");
    mkdirSync(project);
    const server = await llm([
      { toolCalls: [{ name: "run_command", arguments: { command: "touch ../beside.txt" } }] },
      { text: "Refused." },
    ]);
    const run = await runMarvin(["--non-interactive", "--working-dir", project, "--prompt", "touch"], {
      env: serverEnv(server.url, home, { MARVIN_SANDBOX: "of" }),
      cwd: home,
    });
    const problem =
      "MARVIN_SANDBOX=of is not understood: use workspace-write, read-only, off, require. Commands are refused until " +
      "it is set right.";
    expect(run.stderrLines.filter((line) => line.includes("MARVIN_SANDBOX"))).toEqual([problem]);
    expect(toolResults(server.requests[1]!)[0]).toBe(`Error in run_command: ${problem}`);
    expect(existsSync(join(home, "beside.txt"))).toBe(false);
  });

  test("an interactive session says so when MARVIN_APPROVAL is not understood, and asks", async ({ llm, home }) => {
    const server = await llm([]);
    const run = await runMarvin(["--plain"], {
      env: serverEnv(server.url, home, { MARVIN_APPROVAL: "yolo" }),
      cwd: home,
      stdin: "!permissions\n",
    });
    const output = run.stdout + run.stderr;
    expect(output).toContain("MARVIN_APPROVAL=yolo is not understood: use ask, auto, never. Using ask, the default.");
    expect(output).toContain("Approval mode: ask");
  });
});
