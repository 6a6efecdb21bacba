import type { SandboxLayout } from "./layout.js";

function depth(path: string): number {
  return path.split("/").length;
}

/**
 * bubblewrap's arguments for `layout`, up to the command: the whole file system read-only; the home and
 * the folders of sockets (/tmp, /run…) emptied; what stays readable and the writable folders bound back,
 * outer ones first; git's controls read-only on top; secrets under an empty read-only folder (or
 * /dev/null); the emptied folders made read-only once everything is mounted in them. A fresh /dev and
 * /proc in a pid namespace of its own, a user namespace that maps only the caller and no capability in
 * it (as root too: nothing can be unmounted or remounted), no network unless allowed, a new session (no
 * keystrokes into the terminal), and the whole sandbox killed when Marvin dies.
 */
export function bwrapArguments(layout: SandboxLayout): string[] {
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
  for (const folder of layout.emptied) args.push("--tmpfs", folder);
  const bound = [...layout.readable.map((path) => ({ path, write: false }))];
  bound.push(...layout.writable.map((path) => ({ path, write: true })));
  bound.sort((a, b) => depth(a.path) - depth(b.path));
  for (const { path, write } of bound) args.push(write ? "--bind" : "--ro-bind", path, path);
  // A git folder bound onto itself is a mount point: it cannot be moved or removed, so no other .git takes its place.
  for (const path of layout.gitDirs) args.push("--bind", path, path);
  for (const { path } of layout.readOnly) args.push("--ro-bind", path, path);
  const sealed = [...layout.emptied];
  for (const { path, folder } of layout.hidden) {
    if (folder) args.push("--perms", "0500", "--tmpfs", path);
    else args.push("--ro-bind", "/dev/null", path);
    if (folder) sealed.push(path);
  }
  for (const folder of sealed) args.push("--remount-ro", folder);
  args.push("--unshare-user", "--cap-drop", "ALL", "--unshare-pid", "--unshare-ipc", "--unshare-uts");
  args.push("--unshare-cgroup-try");
  if (!layout.network) args.push("--unshare-net");
  args.push("--die-with-parent", "--new-session", "--chdir", layout.cwd, "--");
  return args;
}
