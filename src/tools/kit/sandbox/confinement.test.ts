import { execFile, execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "../../../../tests/support/fixtures.js";
import { addUser, removeUser } from "../../../../tests/support/throwaway-user.js";
import type { ToolHarness } from "../../../../tests/support/tool-harness.js";
import { commandSandbox } from "./command-sandbox.js";

const run = promisify(execFile);

const SECRET = "SECRET-MATERIAL";

/** A home with an ssh key and a git project, and a GnuPG folder outside it (hidden by a mount of its own). */
async function places(make: (prefix: string) => Promise<string>) {
  const home = await make("marvin-confined-home-");
  const project = join(home, "proj");
  await mkdir(join(home, ".ssh"), { recursive: true });
  await writeFile(join(home, ".ssh", "id_ed25519"), SECRET);
  execFileSync("git", ["init", "-q", project]);
  const gnupg = await make("marvin-confined-gnupg-");
  await writeFile(join(gnupg, "private.key"), SECRET);
  return { home, project, gnupg };
}

/** Tries, from inside, every way out that capabilities would open; prints what worked. */
function escapeAttempts(home: string, gnupg: string): string {
  return [
    "grep CapEff /proc/self/status",
    `umount ${home} 2>/dev/null && echo HOME-UNMOUNTED`,
    `umount ${gnupg} 2>/dev/null && echo GNUPG-UNMOUNTED`,
    `cat ${home}/.ssh/id_ed25519 ${gnupg}/private.key 2>/dev/null`,
    "mount -o remount,rw / 2>/dev/null && echo REMOUNTED",
    `touch ${home}/outside.txt 2>/dev/null && echo WROTE-HOME`,
    "umount /proc 2>/dev/null && echo PROC-UNMOUNTED",
    `cat /proc/${process.pid}/environ >/dev/null 2>&1 || echo NO-ENVIRON`,
    "true",
  ].join("\n");
}

function expectConfined(output: string, home: string): void {
  expect(output).toContain("CapEff:\t0000000000000000");
  for (const escaped of ["UNMOUNTED", "REMOUNTED", "WROTE-HOME", SECRET]) expect(output).not.toContain(escaped);
  expect(output).toContain("NO-ENVIRON");
  expect(existsSync(join(home, "outside.txt"))).toBe(false);
}

describe("what a sandboxed command cannot undo", () => {
  test("as root, a command holds no capability: no unmounting, no remounting /, no look at Marvin's /proc", async ({
    tempDirs,
    harnesses,
  }) => {
    expect(process.getuid?.()).toBe(0);
    const { home, project, gnupg } = await places((prefix) => tempDirs.make(prefix));
    const tools = await harnesses.open({
      home,
      workingDir: project,
      codingMode: true,
      env: { HOME: home, GNUPGHOME: gnupg },
    });
    const output = await tools.ok("run_command", { command: escapeAttempts(home, gnupg) });
    expect(output).toMatch(/^Exit code: 0 /);
    expectConfined(output, home);
  });

  test("as an unprivileged user (through runuser), the same sandbox holds and hides the same", async ({ tempDirs }) => {
    const user = await addUser("mvsb");
    try {
      const { home, project, gnupg } = await places((prefix) => tempDirs.make(prefix));
      for (const folder of [home, gnupg]) execFileSync("chown", ["-R", `${user}:${user}`, folder]);
      const env = { HOME: home, PATH: process.env.PATH ?? "/usr/bin:/bin", GNUPGHOME: gnupg };
      const placement = await commandSandbox({ env, home, cwd: project, writableRoot: project });
      if (!("launch" in placement)) throw new Error("bwrap is needed for this test");
      const { launch } = placement;
      execFileSync("chown", [`${user}:${user}`, launch.layout.tempDir]);
      try {
        const argv = [launch.program, ...launch.prefix, "bash", "-c", escapeAttempts(home, gnupg)];
        const { stdout } = await run("runuser", ["-u", user, "--", ...argv], { env: launch.environment(env) });
        expectConfined(stdout, home);
      } finally {
        await launch.dispose();
      }
    } finally {
      await removeUser(user);
    }
  });
});

/** A real tmux server of "the user", on a socket under the real /tmp, with one window. */
async function tmuxServer(): Promise<{ socket: string; windows(): string[]; stop(): void }> {
  const socket = `/tmp/marvin-tmux-${randomBytes(4).toString("hex")}`;
  await run("tmux", ["-S", socket, "new-session", "-d", "-s", "probe", "sleep 600"]);
  return {
    socket,
    windows: () =>
      execFileSync("tmux", ["-S", socket, "list-windows", "-t", "probe", "-F", "#{window_index}"], { encoding: "utf8" })
        .trim()
        .split("\n"),
    stop: () => execFileSync("tmux", ["-S", socket, "kill-server"]),
  };
}

describe("network off: no socket outside the sandbox", () => {
  test("reaches neither the user's tmux server under /tmp nor an abstract socket, and no socket variable", async ({
    tempDirs,
    harnesses,
  }) => {
    const { home, project } = await places((prefix) => tempDirs.make(prefix));
    const tmux = await tmuxServer();
    const abstract = createServer((connection) => connection.end("reached\n"));
    const abstractName = `marvin-abstract-${randomBytes(4).toString("hex")}`;
    await new Promise<void>((resolve) => abstract.listen(`\0${abstractName}`, resolve));
    try {
      const marker = join(project, "from-tmux");
      const tools: ToolHarness = await harnesses.open({
        home,
        workingDir: project,
        codingMode: true,
        env: {
          HOME: home,
          // The system's programs only: a toolchain on PATH under /tmp (this repository's) would be put back there.
          PATH: "/usr/local/bin:/usr/bin:/bin",
          TMUX: `${tmux.socket},1,0`,
          SSH_AUTH_SOCK: "/tmp/ssh-agent.sock",
          DBUS_SESSION_BUS_ADDRESS: "unix:path=/run/user/0/bus",
          DOCKER_HOST: "unix:///run/docker.sock",
          XDG_RUNTIME_DIR: "/run/user/0",
        },
      });
      // A unix socket's path, or an abstract one's name after "@".
      const connect = (address: string) =>
        "python3 -c 'import socket,sys; a=sys.argv[1]; s=socket.socket(socket.AF_UNIX); " +
        `s.connect("\\0" + a[1:] if a[0] == "@" else a); print("UP")' ${address}`;
      const output = await tools.ok("run_command", {
        command: [
          `tmux -S ${tmux.socket} new-window -t probe 'touch ${marker}' 2>/dev/null || echo TMUX-REFUSED`,
          `${connect(tmux.socket)} 2>/dev/null || echo UNIX-REFUSED`,
          `${connect(`@${abstractName}`)} 2>/dev/null || echo ABSTRACT-REFUSED`,
          "ls -A /tmp /var/tmp /run /dev/shm | grep -v -e : -e marvin-sandbox- -e marvin-confined-home- | grep . " +
            "|| echo EMPTY",
          "env | grep -E '^(TMUX|SSH_AUTH_SOCK|DBUS_SESSION_BUS_ADDRESS|DOCKER_HOST|XDG_RUNTIME_DIR)=' " +
            "|| echo NO-SOCKET-VARIABLES",
        ].join("\n"),
      });
      expect(output.split("\n").slice(1)).toEqual([
        "TMUX-REFUSED",
        "UNIX-REFUSED",
        "ABSTRACT-REFUSED",
        "EMPTY",
        "NO-SOCKET-VARIABLES",
      ]);
      expect(tmux.windows()).toEqual(["0"]);
      expect(existsSync(marker)).toBe(false);
    } finally {
      tmux.stop();
      abstract.close();
    }
  });
});

/** Credential files of many programs, each holding SECRET, under `home`. */
const HOME_CREDENTIALS = [
  ".bash_history",
  ".zsh_history",
  ".aws/credentials",
  ".docker/config.json",
  ".kube/config",
  ".npmrc",
  ".pypirc",
  ".gnupg/private.key",
  ".config/gh/hosts.yml",
  ".git-credentials",
  ".mozilla/firefox/default/cookies.sqlite",
  ".config/local-finder/profiles/default/preferences.yaml",
  ".cargo/credentials.toml",
  ".codex/auth.json",
  ".config/local-finder/codex-auth.json",
];

describe("the hidden home", () => {
  test("hides credentials and Marvin's profiles; keeps project, toolchains, git's identity, the readable", async ({
    tempDirs,
    harnesses,
  }) => {
    const { home, project } = await places((prefix) => tempDirs.make(prefix));
    for (const file of [...HOME_CREDENTIALS, "notes/todo.txt"]) {
      await mkdir(join(home, file, ".."), { recursive: true });
      await writeFile(join(home, file), file === "notes/todo.txt" ? "a readable note\n" : SECRET);
    }
    await mkdir(join(home, ".cargo", "bin"), { recursive: true });
    await writeFile(join(home, ".cargo", "bin", "hello"), "#!/bin/sh\necho hello from cargo\n", { mode: 0o755 });
    await writeFile(join(home, ".gitconfig"), "[user]\n\tname = Sandbox Tester\n\temail = tester@example.com\n");
    const tools = await harnesses.open({
      home,
      workingDir: project,
      codingMode: true,
      env: {
        HOME: home,
        PATH: `${join(home, ".cargo", "bin")}:${process.env.PATH}`,
        MARVIN_SANDBOX_READABLE: "~/notes",
      },
    });
    const output = await tools.ok("run_command", {
      command: [
        `cd ~ && cat ${HOME_CREDENTIALS.join(" ")} 2>/dev/null; cd - >/dev/null`,
        "ls -A ~ | LC_ALL=C sort | tr '\\n' ' '; echo",
        "hello",
        "cat ~/notes/todo.txt",
        "git commit --allow-empty -qm first && git log -1 --format=%an",
      ].join("\n"),
    });
    expect(output).not.toContain(SECRET);
    expect(output.split("\n").slice(1)).toEqual([
      ".cargo .gitconfig notes proj ",
      "hello from cargo",
      "a readable note",
      "Sandbox Tester",
    ]);
    await mkdir(join(home, "Documents"));
    await writeFile(join(home, "Documents", "plan.txt"), "a plan\n");
    const hidden = await tools.ok("run_command", { command: "cat ~/Documents/plan.txt" });
    expect(hidden).toMatch(/^Exit code: 1 .*No such file or directory\n/s);
    expect(hidden.split("\n").at(-1)).toBe(
      "Sandbox: the home folder is hidden from commands but for the working dir, toolchains on PATH and git's " +
        "settings; ask the user to add what the task needs to MARVIN_SANDBOX_READABLE, or to run the command.",
    );
  });
});
