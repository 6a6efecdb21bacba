import { describe, expect, it } from "vitest";
import { bwrapArguments } from "./bwrap.js";
import type { SandboxLayout } from "./layout.js";
import { seatbeltProfile } from "./seatbelt.js";

const layout: SandboxLayout = {
  writable: ["/home/me/proj", "/tmp/marvin-sandbox-1"],
  tempDir: "/tmp/marvin-sandbox-1",
  emptied: ["/home/me", "/tmp", "/run"],
  readable: ["/home/me/.cargo", "/home/me/.gitconfig"],
  readOnly: [
    { path: "/home/me/proj/.git/hooks", folder: true },
    { path: "/home/me/proj/.git/config", folder: false },
  ],
  gitDirs: ["/home/me/proj/.git"],
  hidden: [
    { path: "/home/me/.cargo/registry-tokens", folder: true },
    { path: '/opt/we"ird/.netrc', folder: false },
  ],
  secrets: ["/home/me/.cargo/registry-tokens", '/opt/we"ird/.netrc', "/home/me/.ssh"],
  network: false,
  cwd: "/home/me/proj",
};

describe("sandbox profiles", () => {
  it("gives bwrap a read-only root, the home and socket folders emptied, the visible put back, .git pinned", () => {
    expect(bwrapArguments(layout).join(" ")).toBe(
      "--ro-bind / / --dev /dev --proc /proc --tmpfs /home/me --tmpfs /tmp --tmpfs /run " +
        "--bind /tmp/marvin-sandbox-1 /tmp/marvin-sandbox-1 " +
        "--ro-bind /home/me/.cargo /home/me/.cargo --ro-bind /home/me/.gitconfig /home/me/.gitconfig " +
        "--bind /home/me/proj /home/me/proj " +
        "--bind /home/me/proj/.git /home/me/proj/.git " +
        "--ro-bind /home/me/proj/.git/hooks /home/me/proj/.git/hooks " +
        "--ro-bind /home/me/proj/.git/config /home/me/proj/.git/config " +
        "--perms 0500 --tmpfs /home/me/.cargo/registry-tokens " +
        '--ro-bind /dev/null /opt/we"ird/.netrc ' +
        "--remount-ro /home/me --remount-ro /tmp --remount-ro /run --remount-ro /home/me/.cargo/registry-tokens " +
        "--unshare-user --cap-drop ALL --unshare-pid --unshare-ipc --unshare-uts --unshare-cgroup-try --unshare-net " +
        "--die-with-parent --new-session --chdir /home/me/proj --",
    );
    expect(bwrapArguments({ ...layout, network: true })).not.toContain("--unshare-net");
  });

  it("writes a Seatbelt profile denying writes outside, reads in the emptied folders, git controls, secrets", () => {
    expect(seatbeltProfile(layout)).toBe(
      [
        "(version 1)",
        "(allow default)",
        "(deny file-write*)",
        '(allow file-write* (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/fd/"))',
        '(allow file-write* (subpath "/home/me/proj"))',
        '(allow file-write* (subpath "/tmp/marvin-sandbox-1"))',
        '(deny file-read-data (subpath "/home/me"))',
        '(deny file-read-data (subpath "/tmp"))',
        '(deny file-read-data (subpath "/run"))',
        '(allow file-read-data (subpath "/home/me/.cargo"))',
        '(allow file-read-data (subpath "/home/me/.gitconfig"))',
        '(allow file-read-data (subpath "/home/me/proj"))',
        '(allow file-read-data (subpath "/tmp/marvin-sandbox-1"))',
        '(deny file-write* (literal "/home/me/proj/.git"))',
        '(deny file-write* (subpath "/home/me/proj/.git/hooks"))',
        '(deny file-write* (literal "/home/me/proj/.git/config"))',
        '(deny file-write* (literal "/home/me/proj/.git/commondir"))',
        '(deny file-write* (literal "/home/me/proj/.git/config.worktree"))',
        '(deny file-write* (literal "/home/me/proj/.git/gitdir"))',
        '(deny file-write* (subpath "/home/me/proj/.git/info"))',
        '(deny file-write* (subpath "/home/me/proj/.git/worktrees"))',
        '(deny file-read* file-write* (subpath "/home/me/.cargo/registry-tokens"))',
        '(deny file-read* file-write* (literal "/opt/we\\"ird/.netrc"))',
        "(deny network*)",
        "",
      ].join("\n"),
    );
    expect(seatbeltProfile({ ...layout, network: true })).not.toContain("network");
  });
});
