import type { SandboxLayout } from "./layout.js";

/**
 * bubblewrap's arguments for `layout`, up to the command: the whole file system read-only, the
 * writable folders bound back read-write, git's controls read-only on top, secrets under an empty
 * read-only folder (or /dev/null), a fresh /dev and /proc in a pid namespace of its own, no
 * network unless allowed, a new session (no keystrokes into the terminal), and the whole
 * sandbox killed when Marvin dies.
 */
export function bwrapArguments(layout: SandboxLayout): string[] {
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
  for (const folder of layout.writable) args.push("--bind", folder, folder);
  // A git folder bound onto itself is a mount point: it cannot be moved or removed, so no other .git takes its place.
  for (const path of layout.gitDirs) args.push("--bind", path, path);
  for (const { path } of layout.readOnly) args.push("--ro-bind", path, path);
  for (const { path, folder } of layout.hidden) {
    if (folder) args.push("--perms", "0500", "--tmpfs", path, "--remount-ro", path);
    else args.push("--ro-bind", "/dev/null", path);
  }
  args.push("--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try");
  if (!layout.network) args.push("--unshare-net");
  args.push("--die-with-parent", "--new-session", "--chdir", layout.cwd, "--");
  return args;
}
