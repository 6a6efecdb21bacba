import { realpathSync, statSync } from "node:fs";
import type { Env } from "../../../shared/env.js";
import { isInside } from "../../../workspace/sandbox.js";
import { gitEntry, presentControls } from "./git-controls.js";
import { emptiedToolchains, homeExceptions } from "./home-exceptions.js";
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
  /** Folders replaced by an empty read-only one: the home (its secrets) and where sockets live (/tmp, /var/tmp,
   * /run, $XDG_RUNTIME_DIR). None lies inside another.
   */
  emptied: string[];
  /** Inside an emptied folder but readable: the working dir, toolchains, git's identity, MARVIN_SANDBOX_READABLE. */
  readable: string[];
  /** Inside a writable folder but kept read-only: git's controls (git-controls.ts) and `.git` files. */
  readOnly: HiddenPath[];
  /** The writable folders' git folders: writable, but kept where they are (neither moved nor replaced). */
  gitDirs: string[];
  /** Secrets to mount over (those in an emptied folder are hidden already, unless a readable folder holds them). */
  hidden: HiddenPath[];
  /** Every secret path found, hidden either way: what a failed command is told it must not read. */
  secrets: string[];
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

/** Where the sockets of other programs live (tmux, screen, ssh-agent, D-Bus, Docker…). */
const SOCKET_FOLDERS = ["/tmp", "/var/tmp", "/run"];

function realPaths(paths: (string | null | undefined)[]): string[] {
  return [...new Set(paths.flatMap((path) => (path ? (existing(path)?.path ?? []) : [])))];
}

/** `paths` without those inside another of them. */
function outermost(paths: string[]): string[] {
  return paths.filter((path) => !paths.some((other) => other !== path && isInside(other, path)));
}

interface Places {
  cwd: string;
  writableRoot: string | null;
  tempDir: string;
  home: string;
  env: Env;
}

/** What stays readable in the emptied folders: the project and cwd, the home's exceptions, the user's setting. */
function readablePaths(settings: SandboxSettings, places: Places, home: string | undefined): string[] {
  const own = [places.writableRoot, places.cwd].filter((path) => path && existing(path)?.path !== home);
  // With the network, programs look up names through /etc/resolv.conf, often a link into /run.
  const resolver = settings.network ? ["/etc/resolv.conf"] : [];
  const exceptions = home ? homeExceptions(home, places.env) : [];
  const socketFolders = realPaths([...SOCKET_FOLDERS, places.env.XDG_RUNTIME_DIR]);
  const toolchains = emptiedToolchains(socketFolders, places.env).filter((path) => !home || !isInside(home, path));
  return realPaths([...own, ...exceptions, ...toolchains, ...settings.readable, ...resolver]);
}

/** The layout of one command in `cwd` under `settings`, with `tempDir` as its private temp folder. */
export function sandboxLayout(settings: SandboxSettings, places: Places): SandboxLayout {
  const roots = settings.policy === "workspace-write" && places.writableRoot ? [places.writableRoot] : [];
  const writable = realPaths([...roots, ...settings.writable]);
  const home = places.home === "/" ? undefined : existing(places.home)?.path;
  const emptied = outermost(realPaths([home, ...SOCKET_FOLDERS, places.env.XDG_RUNTIME_DIR]));
  const readable = readablePaths(settings, places, home).filter((path) => !writable.includes(path));
  const visible = [...writable, ...readable, places.tempDir];
  const shown = (path: string) =>
    !emptied.some((folder) => isInside(folder, path)) || visible.some((folder) => isInside(folder, path));
  const hidden = secretPaths(places.home, places.env).flatMap((path) => existing(path) ?? []);
  return {
    writable: [...new Set([...writable, places.tempDir])],
    tempDir: places.tempDir,
    emptied,
    readable,
    ...gitControls(writable),
    hidden: hidden.filter(({ path }) => shown(path)),
    secrets: hidden.map(({ path }) => path),
    network: settings.network,
    cwd: places.cwd,
  };
}
