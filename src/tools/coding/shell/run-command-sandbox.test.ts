import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test as base, describe, expect } from "../../../../tests/support/fixtures.js";
import { sendText } from "../../../../tests/support/local-http-server.js";
import { running as alive, killLeftovers, processesWith, waitFor } from "../../../../tests/support/processes.js";
import { REPO_ROOT } from "../../../../tests/support/run-marvin.js";
import type { ToolHarness, ToolHarnessOptions } from "../../../../tests/support/tool-harness.js";
import type { ApprovalQuestion } from "../../../session/approvals.js";
import { createToolRegistry } from "../../index.js";

const test = base.extend<{
  /** The test's home, with a git project in proj/ and an ssh key in .ssh/. */
  root: string;
  project: string;
  /** A coding session in `project`, sandboxed with the real bwrap. */
  harness: (options?: Partial<ToolHarnessOptions>) => Promise<ToolHarness>;
  leftovers: number[];
}>({
  root: async ({ tempDirs }, use) => use(await tempDirs.make("marvin-sandbox-home-")),
  project: async ({ root }, use) => {
    const project = join(root, "proj");
    await mkdir(project);
    execFileSync("git", ["init", "-q", project]);
    await mkdir(join(root, ".ssh"));
    await writeFile(join(root, ".ssh", "id_ed25519"), "PRIVATE KEY MATERIAL");
    await use(project);
  },
  harness: async ({ harnesses, root, project }, use) =>
    use((options = {}) =>
      harnesses.open({
        home: root,
        workingDir: project,
        codingMode: true,
        ...options,
        env: { HOME: root, ...options.env },
      }),
    ),
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern.
  leftovers: async ({}, use) => {
    const pids: number[] = [];
    await use(pids);
    killLeftovers(pids);
  },
});

const WRITE_REFUSED =
  /\nSandbox: only \S+ and \$TMPDIR are writable \(git's hooks, config and other controls in \.git read-only\)/;

/** A committer for git config files the tests plant. */
const IDENTITY = "[user]\n\tname = Planted\n\temail = planted@example.invalid\n";

describe("run_command in the sandbox (bwrap)", () => {
  test("writes in the project, and not beside it, into the home or into .git/hooks", async ({
    root,
    project,
    harness,
  }) => {
    const tools = await harness();
    expect(await tools.ok("run_command", { command: "echo made > inside.txt && cat inside.txt" })).toMatch(
      /^Exit code: 0 \(\ds\)\nmade$/,
    );
    expect(readFileSync(join(project, "inside.txt"), "utf8")).toBe("made\n");
    for (const target of ["../beside.txt", "~/in-home.txt", ".git/hooks/pre-commit"]) {
      const result = await tools.ok("run_command", { command: `echo evil > ${target}` });
      expect(result, target).toMatch(/^Exit code: 1 /);
      expect(result, target).toContain("Read-only file system");
      expect(result, target).toMatch(WRITE_REFUSED);
      expect(result.split("\n").at(-1), target).toContain(project);
    }
    expect(existsSync(join(root, "beside.txt"))).toBe(false);
    expect(existsSync(join(root, "in-home.txt"))).toBe(false);
    expect(existsSync(join(project, ".git", "hooks", "pre-commit"))).toBe(false);
    const config = await tools.ok("run_command", { command: "git config core.hooksPath /tmp/hooks" });
    expect(config).toMatch(WRITE_REFUSED);
    expect(readFileSync(join(project, ".git", "config"), "utf8")).not.toContain("hooksPath");
  });

  test("a command cannot move git's config and hooks: .git/commondir is removed, .git stays in place", async ({
    root,
    project,
    harness,
  }) => {
    const git = (...args: string[]) =>
      execFileSync("git", ["-C", project, ...args], { encoding: "utf8", env: { ...process.env, HOME: root } });
    git("config", "user.name", "Sandbox Test");
    git("config", "user.email", "sandbox@example.invalid");
    await writeFile(join(project, "a.txt"), "one\n");
    git("add", "a.txt");
    git("commit", "-qm", "one");
    const tools = await harness();
    const hook = `#!/bin/sh\ntouch ${root}/hook-ran\n`;
    const fsmonitor = `touch ${root}/fsmonitor-ran; false`;
    const config = `[core]\n\trepositoryformatversion = 0\n\tfsmonitor = "${fsmonitor}"\n${IDENTITY}`;
    const plant = [
      "mkdir -p .git/x/hooks && cp -r .git/objects .git/refs .git/x/",
      `printf '${hook}' > .git/x/hooks/pre-commit && chmod +x .git/x/hooks/pre-commit`,
      `printf '${config}' > .git/x/config && echo x > .git/commondir`,
    ].join(" && ");
    const planted = await tools.ok("run_command", { command: plant });
    expect(planted).toMatch(/^Exit code: 0 /);
    expect(planted.split("\n").at(-1)).toBe(
      "Sandbox: removed .git/commondir: commands may not create git's controls (they tell git where to find its " +
        "config, hooks and other git folders). Use git as it is set up, or ask the user to change it.",
    );
    await writeFile(join(project, "a.txt"), "two\n");
    expect(await tools.ok("git_commit", { message: "two" })).toContain("1 file changed");
    git("status", "--short");
    expect(existsSync(join(root, "hook-ran"))).toBe(false);
    expect(existsSync(join(root, "fsmonitor-ran"))).toBe(false);
    for (const command of ["mv .git .git-old", "mv .git/config .git/c", "echo '*.txt filter=x' > .git/info/attributes"])
      expect(await tools.ok("run_command", { command }), command).toMatch(/^Exit code: 1 /);
    expect(git("log", "--format=%s")).toBe("two\none\n");
  });

  test("git_commit refuses a repository whose .git/commondir points elsewhere", async ({ root, project, harness }) => {
    await mkdir(join(project, ".git", "x", "hooks"), { recursive: true });
    execFileSync("cp", [
      "-r",
      join(project, ".git", "objects"),
      join(project, ".git", "refs"),
      join(project, ".git", "x"),
    ]);
    await writeFile(join(project, ".git", "x", "hooks", "pre-commit"), `#!/bin/sh\ntouch ${root}/hook-ran\n`, {
      mode: 0o755,
    });
    await writeFile(join(project, ".git", "x", "config"), `[core]\n\trepositoryformatversion = 0\n${IDENTITY}`);
    await writeFile(join(project, ".git", "commondir"), "x\n");
    await writeFile(join(project, "a.txt"), "one\n");
    const tools = await harness();
    expect(await tools.failure("git_commit", { message: "one" })).toBe(
      `Error in git_commit: Not running git here: the repository in ${project} uses git folders that are not ` +
        `its own (git folder ` +
        `${project}/.git, common folder ${project}/.git/x), so git could run hooks and config from anywhere. A ` +
        "command may have written .git/commondir or a .git file. Tell the user; they can check with `git rev-parse " +
        "--git-dir --git-common-dir` and remove what does not belong.",
    );
    expect(existsSync(join(root, "hook-ran"))).toBe(false);
  });

  test("hides ~/.ssh, through a symlink too, and says so", async ({ root, project, harness }) => {
    await symlink(join(root, ".ssh"), join(project, "keys"));
    const tools = await harness();
    for (const command of ["cat ~/.ssh/id_ed25519", "cat keys/id_ed25519"]) {
      const result = await tools.ok("run_command", { command });
      expect(result).not.toContain("PRIVATE KEY MATERIAL");
      expect(result).toMatch(/^Exit code: 1 /);
      if (command.includes("~/.ssh"))
        expect(result.split("\n").at(-1)).toBe(
          "Sandbox: ~/.ssh holds secrets and is hidden from commands; do not try to read it — ask the user if the " +
            "task really needs it.",
        );
    }
  });

  test("has no network, not even 127.0.0.1, unless MARVIN_SANDBOX_NETWORK=on", async ({ harness, httpServers }) => {
    const server = await httpServers.start((_request, response) => sendText(response, "hello from the host"));
    const command = `exec 3<>/dev/tcp/127.0.0.1/${server.port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3`;
    const offline = await (await harness()).ok("run_command", { command });
    expect(offline).toMatch(/^Exit code: 1 /);
    expect(offline).toContain("Connection refused");
    expect(offline.split("\n").at(-1)).toBe(
      "Sandbox: commands have no network (not even 127.0.0.1); work offline, or ask the user to allow it " +
        "(MARVIN_SANDBOX_NETWORK=on) or to run the command.",
    );
    expect(server.connections).toBe(0);
    const online = await (await harness({ env: { MARVIN_SANDBOX_NETWORK: "on" } })).ok("run_command", { command });
    expect(online).toMatch(/^Exit code: 0 /);
    expect(online).toContain("hello from the host");
    expect(server.connections).toBe(1);
  });

  test("runs git status, a compiler and the project's test command, with a private TMPDIR", async ({
    project,
    harness,
  }) => {
    await writeFile(
      join(project, "package.json"),
      JSON.stringify({ name: "p", private: true, scripts: { test: "node check.mjs" } }),
    );
    await writeFile(join(project, "check.mjs"), "console.log(process.env.TMPDIR ? 'tests pass' : 'no tmpdir');\n");
    // The TypeScript compiler of this repository, on PATH as a project's toolchain is (wherever the repository lies).
    const toolchain = join(REPO_ROOT, "node_modules", ".bin");
    const tools = await harness({ env: { PATH: `${toolchain}:${process.env.PATH}` } });
    expect(await tools.ok("run_command", { command: "git status --short" })).toMatch(
      /^Exit code: 0 .*\n\?\? check\.mjs/,
    );
    expect(await tools.ok("run_command", { command: "node -e 'console.log(6 * 7)'" })).toMatch(/\n42$/);
    // A compiler that writes its output into the project.
    await writeFile(join(project, "hello.ts"), "const answer: number = 6 * 7;\nconsole.log(answer);\n");
    const compiled = await tools.ok("run_command", { command: "tsc --outDir out hello.ts && node out/hello.js" });
    expect(compiled).toMatch(/^Exit code: 0 .*\n42$/s);
    expect(await tools.ok("run_command", { command: "npm test --silent" })).toMatch(/^Exit code: 0 .*\ntests pass$/s);
    const temp = await tools.ok("run_command", { command: 'echo x > "$TMPDIR/t" && cat "$TMPDIR/t" && echo $TMPDIR' });
    const tempDir = temp.split("\n").at(-1)!;
    expect(temp).toMatch(/^Exit code: 0 .*\nx\n\/.*marvin-sandbox-/s);
    expect(existsSync(tempDir)).toBe(false);
  });

  test("kills everything at the timeout, with the same report as outside the sandbox", async ({ harness }) => {
    const tools = await harness();
    const started = Date.now();
    const outcome = await tools.call("run_command", {
      command: "bash -c 'sleep 31.5' & sleep 31.6 & setsid sleep 31.7 & echo waiting; wait",
      timeout: 1,
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(outcome.result).toBe(
      "Timed out after 1s: killed the command's 4 processes (every one Marvin found); none is still running. Raise " +
        "timeout (seconds) if it needs longer, or run it in the background with output to a file.\nwaiting",
    );
    expect(processesWith("sleep 31.")).toEqual([]);
  });

  test("kills the command when the call is aborted", async ({ project, harness }) => {
    const tools = await harness();
    const controller = new AbortController();
    const running = createToolRegistry().execute(
      "run_command",
      { command: "sleep 32.5 & touch started; wait" },
      tools.session.toolContext(controller.signal),
    );
    await waitFor(() => existsSync(join(project, "started")) && processesWith("sleep 32.5").length > 0);
    controller.abort(new Error("user pressed Esc"));
    expect(await running).toEqual({ isError: true, result: "Tool run_command was cancelled." });
    await waitFor(() => processesWith("sleep 32.5").length === 0);
  });

  test("returns when the shell exits, names its background jobs and stops them when the session ends", async ({
    harness,
    leftovers,
  }) => {
    const tools = await harness();
    const started = Date.now();
    const result = await tools.ok("run_command", { command: "sleep 33.5 & echo started; exit 3" });
    expect(Date.now() - started).toBeLessThan(3_000);
    const pids = processesWith("sleep 33.5");
    leftovers.push(...pids);
    expect(pids).toHaveLength(1);
    expect(result).toMatch(/^Exit code: 3 \(\ds\)\nstarted\n/);
    expect(result.split("\n")[2]).toMatch(
      new RegExp(`^Note: still running in the background: pid ${pids[0]} \\(sleep\\)\\. Marvin stops it when`),
    );
    await tools.close();
    expect(pids.map(alive)).toEqual([false]);
  });

  test("in auto mode, asks to run a command again outside the sandbox only when the sandbox itself failed", async ({
    root,
    harness,
  }) => {
    const asked: ApprovalQuestion[] = [];
    const askApproval = async (question: ApprovalQuestion) => {
      asked.push(question);
      return "yes" as const;
    };
    const tools = await harness({ env: { MARVIN_APPROVAL: "auto" }, askApproval });
    expect(await tools.ok("run_command", { command: "echo inside > in.txt" })).toMatch(/^Exit code: 0/);
    // Neither a write the sandbox refused nor output that reads like one opens the question: the model is told.
    const refused = await tools.ok("run_command", { command: "echo outside > ../out.txt" });
    expect(refused).toMatch(WRITE_REFUSED);
    const printed = await tools.ok("run_command", {
      command: "echo \"touch: cannot touch '/x': Read-only file system\"; echo 'Network is unreachable'; exit 1",
    });
    expect(printed).toMatch(WRITE_REFUSED);
    expect(asked).toEqual([]);
    expect(existsSync(join(root, "out.txt"))).toBe(false);
    // bwrap cannot mount a folder of Marvin's own /proc in the sandbox's: it fails before starting the command.
    const failing = await harness({
      env: { MARVIN_APPROVAL: "auto", MARVIN_SANDBOX_READABLE: "/proc/self" },
      askApproval,
    });
    const result = await failing.ok("run_command", { command: "echo outside > ../out.txt" });
    expect(asked.map((question) => question.text)).toEqual([
      "The sandbox stopped `echo outside > ../out.txt` (it failed before the command started). Run it again " +
        "outside the " +
        "sandbox?",
    ]);
    expect(result).toMatch(
      /^Ran again outside the sandbox: the user allowed it \(it failed before the command started\)\.\nExit code: 0/,
    );
    expect(readFileSync(join(root, "out.txt"), "utf8")).toBe("outside\n");
  });

  test("without bwrap on PATH runs commands unconfined, and refuses them with MARVIN_SANDBOX=require", async ({
    root,
    harness,
  }) => {
    const bin = join(root, "bin");
    await mkdir(bin);
    for (const program of ["bash", "touch"])
      await symlink(execFileSync("which", [program], { encoding: "utf8" }).trim(), join(bin, program));
    // auto falls back to asking: nothing contains the command.
    const asked: string[] = [];
    const unconfined = await harness({
      env: { PATH: bin, MARVIN_APPROVAL: "auto" },
      askApproval: async (question) => {
        asked.push(question.text);
        return "yes";
      },
    });
    expect(await unconfined.ok("run_command", { command: "touch ../beside.txt" })).toMatch(/^Exit code: 0/);
    expect(asked).toEqual(["Run `touch ../beside.txt`?"]);
    expect(existsSync(join(root, "beside.txt"))).toBe(true);
    const required = await harness({ env: { PATH: bin, MARVIN_SANDBOX: "require" } });
    expect(await required.failure("run_command", { command: "touch ../refused.txt" })).toBe(
      "Error in run_command: Commands are refused: MARVIN_SANDBOX=require, but bwrap is not installed (package " +
        "bubblewrap: apt install bubblewrap). Tell the user; do not retry.",
    );
    expect(existsSync(join(root, "refused.txt"))).toBe(false);
  });
});
