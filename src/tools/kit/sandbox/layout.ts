import { existsSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Env } from "../../../shared/env.js";
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
  /** Inside a writable folder but kept read-only: the project's .git/hooks and .git/config. */
  readOnly: HiddenPath[];
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

/** git's own files in a writable folder: what is written there makes git run programs later. */
function gitControls(folders: string[]): HiddenPath[] {
  return folders.flatMap((folder) =>
    [join(folder, ".git", "hooks"), join(folder, ".git", "config")].flatMap((path) => existing(path) ?? []),
  );
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
    readOnly: gitControls(writable.filter((path) => existsSync(join(path, ".git")))),
    hidden,
    network: settings.network,
    cwd: places.cwd,
  };
}
