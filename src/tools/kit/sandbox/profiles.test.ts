import { describe, expect, it } from "vitest";
import { bwrapArguments } from "./bwrap.js";
import type { SandboxLayout } from "./layout.js";
import { seatbeltProfile } from "./seatbelt.js";

const layout: SandboxLayout = {
  writable: ["/home/me/proj", "/tmp/marvin-sandbox-1"],
  tempDir: "/tmp/marvin-sandbox-1",
  readOnly: [
    { path: "/home/me/proj/.git/hooks", folder: true },
    { path: "/home/me/proj/.git/config", folder: false },
  ],
  gitDirs: ["/home/me/proj/.git"],
  hidden: [
    { path: "/home/me/.ssh", folder: true },
    { path: '/home/me/we"ird/.netrc', folder: false },
  ],
  network: false,
  cwd: "/home/me/proj",
};

describe("sandbox profiles", () => {
  it("gives bwrap a read-only root, writable folders, .git pinned, git controls read-only, secrets hidden", () => {
    expect(bwrapArguments(layout).join(" ")).toBe(
      "--ro-bind / / --dev /dev --proc /proc --bind /home/me/proj /home/me/proj " +
        "--bind /tmp/marvin-sandbox-1 /tmp/marvin-sandbox-1 " +
        "--bind /home/me/proj/.git /home/me/proj/.git " +
        "--ro-bind /home/me/proj/.git/hooks /home/me/proj/.git/hooks " +
        "--ro-bind /home/me/proj/.git/config /home/me/proj/.git/config " +
        "--perms 0500 --tmpfs /home/me/.ssh --remount-ro /home/me/.ssh " +
        '--ro-bind /dev/null /home/me/we"ird/.netrc ' +
        "--unshare-pid --unshare-ipc --unshare-uts --unshare-cgroup-try --unshare-net " +
        "--die-with-parent --new-session --chdir /home/me/proj --",
    );
    expect(bwrapArguments({ ...layout, network: true })).not.toContain("--unshare-net");
  });

  it("writes a Seatbelt profile denying writes outside, moving .git, git controls present or not, secrets", () => {
    expect(seatbeltProfile(layout)).toBe(
      [
        "(version 1)",
        "(allow default)",
        "(deny file-write*)",
        '(allow file-write* (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/fd/"))',
        '(allow file-write* (subpath "/home/me/proj"))',
        '(allow file-write* (subpath "/tmp/marvin-sandbox-1"))',
        '(deny file-write* (literal "/home/me/proj/.git"))',
        '(deny file-write* (subpath "/home/me/proj/.git/hooks"))',
        '(deny file-write* (literal "/home/me/proj/.git/config"))',
        '(deny file-write* (literal "/home/me/proj/.git/commondir"))',
        '(deny file-write* (literal "/home/me/proj/.git/config.worktree"))',
        '(deny file-write* (literal "/home/me/proj/.git/gitdir"))',
        '(deny file-write* (subpath "/home/me/proj/.git/info"))',
        '(deny file-write* (subpath "/home/me/proj/.git/worktrees"))',
        '(deny file-read* file-write* (subpath "/home/me/.ssh"))',
        '(deny file-read* file-write* (literal "/home/me/we\\"ird/.netrc"))',
        "(deny network*)",
        "",
      ].join("\n"),
    );
    expect(seatbeltProfile({ ...layout, network: true })).not.toContain("network");
  });
});
