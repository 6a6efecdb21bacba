import type { Dirent } from "node:fs";
import { readdir, realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import { notRegularFile } from "../regular-file.js";
import { isInside } from "../sandbox.js";
import type { GlobOverrides } from "./glob.js";
import { IGNORE_FILE_NAMES, IgnoreRules } from "./ignore-rules.js";

interface WalkedFile {
  absolute: string;
  /** Posix path relative to the root. */
  relative: string;
}

const IGNORE_FILES = new Set<string>(IGNORE_FILE_NAMES);
const GIT_EXCLUDE = ".git/info/exclude";

type DirectoryVisitor = (directory: string, entries: readonly Dirent[], rules: IgnoreRules) => void;

const childPath = (directory: string, name: string) => (directory ? `${directory}/${name}` : name);

function skipped(overrides: GlobOverrides, rules: IgnoreRules, relative: string, isDirectory: boolean): boolean {
  const decision = overrides.decide(relative, isDirectory);
  return decision === "exclude" || (decision === undefined && rules.ignores(relative, isDirectory));
}

/**
 * Visits every directory ripgrep would enter under `start` (posix, relative to `root`, a
 * directory): symlinks not followed, ignore files and glob overrides applied.
 */
async function walkSearchDirectories(
  root: string,
  start: string,
  overrides: GlobOverrides,
  signal: AbortSignal,
  visit: DirectoryVisitor,
): Promise<void> {
  async function walk(
    directory: string,
    rulesFor: (names: ReadonlySet<string>) => Promise<IgnoreRules>,
  ): Promise<void> {
    if (signal.aborted) return;
    const entries = await readdir(join(root, directory), { withFileTypes: true }).catch(() => []);
    const rules = await rulesFor(new Set(entries.map((entry) => entry.name)));
    visit(directory, entries, rules);
    const children: Array<Promise<void>> = [];
    for (const entry of entries) {
      if (!entry.isDirectory()) continue; // symlinks are not followed, as in ripgrep
      const relative = childPath(directory, entry.name);
      if (skipped(overrides, rules, relative, true)) continue;
      children.push(walk(relative, (names) => rules.descend(root, relative, names)));
    }
    await Promise.all(children);
  }
  await walk(start, () => IgnoreRules.forDirectory(root, start));
}

/**
 * Every file ripgrep would search under `start` (posix, relative to `root`): hidden files
 * included, symlinks not followed, anything but regular files skipped, ignore files and glob
 * overrides applied. An explicit regular file as `start` is returned as is; a FIFO or device is refused.
 */
export async function listSearchFiles(
  root: string,
  start: string,
  overrides: GlobOverrides,
  signal: AbortSignal,
): Promise<WalkedFile[]> {
  const startRelative = start === "." ? "" : start;
  const info = await stat(join(root, startRelative));
  if (info.isFile()) return [{ absolute: join(root, startRelative), relative: startRelative }];
  if (!info.isDirectory()) throw notRegularFile(start, info);
  const files: WalkedFile[] = [];
  await walkSearchDirectories(root, startRelative, overrides, signal, (directory, entries, rules) => {
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const relative = childPath(directory, entry.name);
      if (!skipped(overrides, rules, relative, false)) files.push({ absolute: join(root, relative), relative });
    }
  });
  return files;
}

/** True when `relativePath` is missing (opening it fails harmlessly) or leads to a regular file inside `root`. */
async function safeToOpen(root: string, relativePath: string): Promise<boolean> {
  const real = await realpath(join(root, relativePath)).catch(() => undefined);
  if (real === undefined) return true;
  return isInside(root, real) && ((await stat(real).catch(() => undefined))?.isFile() ?? true);
}

/**
 * Ignore files ripgrep would open for a search of `start` (a directory, posix, relative to
 * the real `root`) that are not plain regular files inside the root: symlinks leading out (whose
 * target ripgrep would read) and FIFOs (on which it would block for ever). Empty when ripgrep
 * can be left to read them; the built-in search skips such files.
 */
export async function unsafeIgnoreFiles(
  root: string,
  start: string,
  overrides: GlobOverrides,
  signal: AbortSignal,
): Promise<string[]> {
  const startRelative = start === "." ? "" : start;
  const candidates: string[] = [];
  // ripgrep also reads the ignore files of the directories above the one searched.
  const segments = startRelative.split("/").filter(Boolean);
  for (let depth = 0; depth < segments.length; depth++) {
    const directory = segments.slice(0, depth).join("/");
    candidates.push(...IGNORE_FILE_NAMES.map((name) => childPath(directory, name)), childPath(directory, GIT_EXCLUDE));
  }
  await walkSearchDirectories(root, startRelative, overrides, signal, (directory, entries) => {
    for (const entry of entries) {
      if (IGNORE_FILES.has(entry.name) && !entry.isFile()) candidates.push(childPath(directory, entry.name));
      if (entry.name === ".git" && !entry.isFile()) candidates.push(childPath(directory, GIT_EXCLUDE));
    }
  });
  const unsafe: string[] = [];
  for (const candidate of candidates) if (!(await safeToOpen(root, candidate))) unsafe.push(candidate);
  return unsafe;
}
