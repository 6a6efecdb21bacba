import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** A path in a git folder, and whether it is a folder. */
interface GitControl {
  path: string;
  folder: boolean;
}

/**
 * What in a git folder tells git where its config, hooks and other git folders are, or runs
 * programs: a command that writes one of these makes git (Marvin's own, or the user's next one)
 * run what it wants outside the sandbox.
 */
const CONTROL_NAMES: readonly { name: string; folder: boolean }[] = [
  { name: "config", folder: false },
  { name: "hooks", folder: true },
  { name: "commondir", folder: false },
  { name: "config.worktree", folder: false },
  { name: "gitdir", folder: false },
  { name: "info", folder: true },
  { name: "worktrees", folder: true },
];

function kindOf(path: string): "file" | "folder" | "other" | undefined {
  try {
    const stats = lstatSync(path);
    if (stats.isDirectory()) return "folder";
    return stats.isFile() ? "file" : "other";
  } catch {
    return undefined;
  }
}

/** Every control path of the git folder `gitDir`, present or not (submodules' git folders below it not included). */
export function controlPaths(gitDir: string): GitControl[] {
  return CONTROL_NAMES.map(({ name, folder }) => ({ path: join(gitDir, name), folder }));
}

/** The git folders of the submodules below `gitDir` (`modules/<name>/`, nested ones too). */
function moduleGitDirs(gitDir: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      if (kindOf(path) !== "folder") continue;
      // A submodule's name may hold slashes: a folder without HEAD is one more part of a name.
      if (kindOf(join(path, "HEAD")) === undefined) walk(path);
      else found.push(path, ...moduleGitDirs(path));
    }
  };
  walk(join(gitDir, "modules"));
  return found;
}

/** The control paths that exist now in `gitDir` and its submodules' git folders, whatever their kind. */
export function presentControls(gitDir: string): GitControl[] {
  return [gitDir, ...moduleGitDirs(gitDir)].flatMap((dir) =>
    controlPaths(dir).flatMap((control) => {
      const kind = kindOf(control.path);
      return kind === undefined ? [] : [{ path: control.path, folder: kind === "folder" }];
    }),
  );
}

/** The `.git` of `folder`: a git folder, a `gitdir:` file (a linked worktree or submodule), or none. */
export function gitEntry(folder: string): { gitDir: string } | { gitFile: string } | undefined {
  const path = join(folder, ".git");
  const kind = kindOf(path);
  if (kind === "folder") return { gitDir: path };
  return kind === "file" ? { gitFile: path } : undefined;
}
