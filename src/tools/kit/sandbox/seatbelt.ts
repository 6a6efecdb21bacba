import { controlPaths } from "./git-controls.js";
import type { SandboxLayout } from "./layout.js";

/** A path as a string literal of the sandbox profile language. */
function quoted(path: string): string {
  return `"${path.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}

/**
 * The `sandbox-exec` (Seatbelt) profile for `layout` on macOS: everything allowed but writing
 * outside the writable folders (moving their .git, and git's controls, denied on top), reading what is in
 * the emptied folders (the home, /tmp…) but the readable and writable ones, reading the secrets, and — unless
 * allowed — the network (unix sockets included). Later rules win, so each denial comes after what it narrows.
 * Names stay visible (file-read-metadata), so paths through the home still resolve.
 */
export function seatbeltProfile(layout: SandboxLayout): string {
  const lines = ["(version 1)", "(allow default)", "(deny file-write*)"];
  const devices = ['(literal "/dev/null")', '(literal "/dev/tty")', '(regex #"^/dev/fd/")'];
  lines.push(`(allow file-write* ${devices.join(" ")})`);
  for (const folder of layout.writable) lines.push(`(allow file-write* (subpath ${quoted(folder)}))`);
  for (const folder of layout.emptied) lines.push(`(deny file-read-data (subpath ${quoted(folder)}))`);
  for (const path of [...layout.readable, ...layout.writable])
    lines.push(`(allow file-read-data (subpath ${quoted(path)}))`);
  for (const path of layout.gitDirs) lines.push(`(deny file-write* (literal ${quoted(path)}))`);
  // git's controls are denied whether present or not: a path denied by name cannot be created either.
  const controls = [...layout.readOnly, ...layout.gitDirs.flatMap(controlPaths)];
  for (const rule of new Set(controls.map(({ path, folder }) => `(${folder ? "subpath" : "literal"} ${quoted(path)})`)))
    lines.push(`(deny file-write* ${rule})`);
  for (const { path, folder } of layout.hidden)
    lines.push(`(deny file-read* file-write* (${folder ? "subpath" : "literal"} ${quoted(path)}))`);
  if (!layout.network) lines.push("(deny network*)");
  return `${lines.join("\n")}\n`;
}
