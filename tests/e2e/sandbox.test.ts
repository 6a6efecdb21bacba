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

const NO_BWRAP_REFUSAL =
  "Commands are refused: bwrap is not installed (package bubblewrap: apt install bubblewrap), and no one can be " +
  "asked to let them run without a sandbox. Install it, or set MARVIN_SANDBOX=off to run them unconfined.";

const NO_BWRAP_ASKS_ONCE =
  "Commands would run without a sandbox: bwrap is not installed (package bubblewrap: apt install bubblewrap). Marvin " +
  "asks once before the first one; install it to keep commands inside the working dir, or set MARVIN_SANDBOX=off " +
  "to run them unconfined without asking.";

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

  test("bwrap that cannot make a user namespace is said so, and commands do not run with capabilities", async ({
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
    expect(stderr).toMatch(/^Commands are refused: bwrap cannot make a sandbox on this machine \(bwrap: /m);
    expect(toolResults(server.requests[1]!)[0]).toMatch(
      /^Error in run_command: Commands are refused: no sandbox works/,
    );
  });

  test("a command's planted .git/commondir, hook and fsmonitor run on neither git_commit nor the user's git", async ({
    llm,
    home,
  }) => {
    const project = join(home, "project");
    const git = (...args: string[]) =>
      execFileSync("git", ["-C", project, ...args], { encoding: "utf8", env: { ...process.env, HOME: home } });
    execFileSync("git", ["init", "-q", project]);
    git("config", "user.name", "E2E Author");
    git("config", "user.email", "e2e@example.invalid");
    const identity = "[user]\\n\\tname = Planted\\n\\temail = planted@example.invalid\\n";
    const plant = [
      "mkdir -p .git/x/hooks && cp -r .git/objects .git/refs .git/x/",
      `printf '#!/bin/sh\\ntouch ${home}/hook-ran\\n' > .git/x/hooks/pre-commit && chmod +x .git/x/hooks/pre-commit`,
      `printf '[core]\\n\\tfsmonitor = "touch ${home}/fsmonitor-ran; false"\\n${identity}' > .git/x/config`,
      "echo x > .git/commondir && echo hello > hello.txt",
    ].join(" && ");
    const server = await llm([
      { toolCalls: [{ name: "run_command", arguments: { command: plant } }] },
      { toolCalls: [{ name: "git_commit", arguments: { message: "Add hello" } }] },
      { text: "Done." },
    ]);
    const run = await runMarvin(["--non-interactive", "--working-dir", project, "--prompt", "commit hello"], {
      env: serverEnv(server.url, home),
      cwd: home,
    });
    expect(run.code, run.stderr).toBe(0);
    git("status", "--short");
    expect(existsSync(join(home, "hook-ran"))).toBe(false);
    expect(existsSync(join(home, "fsmonitor-ran"))).toBe(false);
    const [planted, committed] = toolResults(server.requests[2]!);
    expect(planted).toContain("\nSandbox: removed .git/commondir: commands may not create git's controls");
    expect(committed).toContain("Add hello");
    expect(git("log", "--format=%an %s")).toBe("E2E Author Add hello\n");
  });

  test("without bwrap a non-interactive run refuses commands, naming the fix; off runs them; require refuses", async ({
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
    const refused = await llm(touchTwice);
    const run = await runMarvin(["--non-interactive", "--working-dir", project, "--prompt", "touch"], {
      env: { ...serverEnv(refused.url, home), PATH: bin },
      cwd: home,
    });
    expect(run.code).toBe(0);
    expect(run.stderrLines.filter((line) => line.includes("sandbox"))).toEqual([NO_BWRAP_REFUSAL]);
    expect(toolResults(refused.requests[1]!)[0]).toBe(
      "Error in run_command: Commands are refused: no sandbox works (bwrap is not installed (package bubblewrap: " +
        "apt install bubblewrap)), and no one can be asked to let them run unconfined. Tell the user to install " +
        "it, or to set MARVIN_SANDBOX=off to run commands unconfined; do not retry.",
    );
    expect([existsSync(join(home, "one.txt")), existsSync(join(home, "two.txt"))]).toEqual([false, false]);

    const server = await llm(touchTwice);
    const unconfined = await runMarvin(["--non-interactive", "--working-dir", project, "--prompt", "touch"], {
      env: { ...serverEnv(server.url, home), PATH: bin, MARVIN_SANDBOX: "off" },
      cwd: home,
    });
    expect(unconfined.code).toBe(0);
    expect(unconfined.stderrLines.filter((line) => line.includes("sandbox"))).toEqual([]);
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

  test("without bwrap, an interactive session in never mode asks once before commands run unconfined", async ({
    llm,
    home,
  }) => {
    const project = join(home, "project");
    mkdirSync(project);
    const bin = binWithoutBwrap(home);
    const server = await llm([
      { toolCalls: [{ name: "run_command", arguments: { command: "touch ../one.txt" } }] },
      { toolCalls: [{ name: "run_command", arguments: { command: "touch ../two.txt" } }] },
      { text: "Done." },
      { toolCalls: [{ name: "run_command", arguments: { command: "touch ../three.txt" } }] },
      { text: "Refused." },
    ]);
    const allowing = await runMarvin(["--plain", "--working-dir", project], {
      env: { ...serverEnv(server.url, home, { MARVIN_APPROVAL: "never" }), PATH: bin },
      cwd: home,
      stdin: "touch two files\ny\n",
    });
    const question =
      "No sandbox works here (bwrap is not installed (package bubblewrap: apt install bubblewrap)), so commands " +
      "would run unconfined, with all your rights. Let commands run without a sandbox for the rest of this " +
      "conversation? [y/N] ";
    expect(allowing.stdout + allowing.stderr).toContain(NO_BWRAP_ASKS_ONCE);
    expect(allowing.stdout.split(question)).toHaveLength(2);
    expect([existsSync(join(home, "one.txt")), existsSync(join(home, "two.txt"))]).toEqual([true, true]);

    const declining = await runMarvin(["--plain", "--working-dir", project], {
      env: { ...serverEnv(server.url, home, { MARVIN_APPROVAL: "never" }), PATH: bin },
      cwd: home,
      stdin: "touch a third\nn\n",
    });
    expect(declining.stdout).toContain(question);
    expect(toolResults(server.requests[4]!).at(-1)).toBe(
      "The user did not allow commands to run without a sandbox (bwrap is not installed (package bubblewrap: apt " +
        "install bubblewrap)). Do not run commands; ask the user what to do instead.",
    );
    expect(existsSync(join(home, "three.txt"))).toBe(false);
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
