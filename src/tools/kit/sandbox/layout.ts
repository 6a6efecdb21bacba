import { realpathSync, statSync } from "node:fs";
import type { Env } from "../../../shared/env.js";
import { gitEntry, presentControls } from "./git-controls.js";
import { secretPaths } from "./secret-paths.js";
import type { SandboxSettings } from "./settings.js";

/** A path to hide, and whether it is a folder (hidden under an empty one) or a file (under an empty file). */
interface HiddenPath {
  path: string;
  folder: boolean;
}

/** Everything a sandbox program needs to know, with every path real and existing. */
export interface SandboxLayout {
  /** Folders the command may write: the working dir (workspace-write), MARVIN_SANDBOX_WRITABLE, the temp folder. */
  writable: string[];
  /** The private temp folder (TMPDIR). */
  tempDir: string;
  /** Inside a writable folder but kept read-only: git's controls (git-controls.ts) and `.git` files. */
  readOnly: HiddenPath[];
  /** The writable folders' git folders: writable, but kept where they are (neither moved nor replaced). */
  gitDirs: string[];
  /** Secrets: unreadable. */
  hidden: HiddenPath[];
  network: boolean;
  /** The command's working directory. */
  cwd: string;
}

function existing(path: string): HiddenPath | undefined {
  try {
    const real = realpathSync(path);
    return { path: real, folder: statSync(real).isDirectory() };
  } catch {
    return undefined;
  }
}

/**
 * git's own files in the writable folders: what is written there makes git run programs later. A
 * `.git` file (a linked worktree's or submodule's pointer to its git folder) is read-only whole; in a
 * `.git` folder, the controls present now are (those created later are removed after the command).
 */
function gitControls(folders: string[]): { readOnly: HiddenPath[]; gitDirs: string[] } {
  const entries = folders.flatMap((folder) => gitEntry(folder) ?? []);
  const gitDirs = entries.flatMap((entry) => ("gitDir" in entry ? [entry.gitDir] : []));
  const pointers = entries.flatMap((entry) => ("gitFile" in entry ? [entry.gitFile] : []));
  const controls = [...pointers, ...gitDirs.flatMap((dir) => presentControls(dir).map(({ path }) => path))];
  return { readOnly: controls.flatMap((path) => existing(path) ?? []), gitDirs };
}

/** The layout of one command in `cwd` under `settings`, with `tempDir` as its private temp folder. */
export function sandboxLayout(
  settings: SandboxSettings,
  places: { cwd: string; writableRoot: string | null; tempDir: string; home: string; env: Env },
): SandboxLayout {
  const roots = settings.policy === "workspace-write" && places.writableRoot ? [places.writableRoot] : [];
  const writable = [...roots, ...settings.writable].flatMap((path) => existing(path)?.path ?? []);
  const hidden = secretPaths(places.home, places.env).flatMap((path) => existing(path) ?? []);
  return {
    writable: [...new Set([...writable, places.tempDir])],
    tempDir: places.tempDir,
    ...gitControls(writable),
    hidden,
    network: settings.network,
    cwd: places.cwd,
  };
}
