import { mkdir, realpath, stat, writeFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { ToolError } from "../shared/tool-error.js";
import { isInside, realpathAllowingMissing, realRoot } from "./sandbox.js";

/** Marvin's folder in a working dir. */
const MARVIN_DIR = ".marvin";
/** Subfolders of `.marvin/` that hold runtime files (backups, review output and pids), not project knowledge. */
const RUNTIME_SUBDIRS = ["logs", "reviews"] as const;

/** The folders Marvin writes into under a working dir, relative to it. */
export const OWN_DIRS = {
  notes: join(MARVIN_DIR, "notes"),
  memories: join(MARVIN_DIR, "memories"),
  logs: join(MARVIN_DIR, RUNTIME_SUBDIRS[0]),
  reviews: join(MARVIN_DIR, RUNTIME_SUBDIRS[1]),
  tickets: ".tickets",
} as const;

/**
 * `.marvin/.gitignore`: keeps Marvin's runtime files (and this file) out of the user's commits;
 * notes, memories, instructions and spec/ux/design documents stay committable.
 */
export const MARVIN_GITIGNORE = [
  "# Written by Marvin, which never overwrites this file: its runtime files stay out of your commits.",
  "# Notes, memories, instructions and spec/ux/design documents are not listed: commit them if you like.",
  "/.gitignore",
  ...RUNTIME_SUBDIRS.map((name) => `/${name}/`),
  "*.pid",
  "",
].join("\n");

const shownDir = (relativeDir: string) => relativeDir.split(sep).join("/");

function leadsOutside(relativeDir: string, root: string, real: string): ToolError {
  const shown = shownDir(relativeDir);
  return new ToolError(
    `Refusing to use ${shown}/: it is a symbolic link (or lies under one) leading outside the working dir ` +
      `${root}, to ${real}. Marvin keeps its own files inside the working dir: remove that link, or make ${shown} ` +
      "a real folder, and try again.",
  );
}

function notAFolder(relativeDir: string, root: string, onTheWay = false): ToolError {
  const where = `${shownDir(relativeDir)} in ${root}`;
  const problem = onTheWay ? `A file is in the way of ${where}` : `${where} exists but is not a folder`;
  return new ToolError(`${problem}, so Marvin cannot keep its files there. Move it away first.`);
}

/** The real path of `relativeDir` (which may not exist yet) and of the working dir, or a refusal when it leads out. */
async function checkedDir(workingDir: string, relativeDir: string): Promise<{ root: string; real: string }> {
  const root = await realRoot(workingDir);
  const real = await realpathAllowingMissing(join(root, relativeDir));
  if (!isInside(root, real)) throw leadsOutside(relativeDir, root, real);
  return { root, real };
}

/**
 * Writes `.marvin/.gitignore` unless something is already there (never overwritten, never written
 * through a link). Best effort: a folder where it cannot be written is still usable.
 */
async function writeMarvinGitignore(root: string): Promise<void> {
  const path = join(root, MARVIN_DIR, ".gitignore");
  await writeFile(path, MARVIN_GITIGNORE, { flag: "wx" }).catch(() => undefined);
}

/**
 * Writes `.marvin/.gitignore` in `workingDir` when its `.marvin` is a folder inside it without one
 * (made by an older Marvin, or by hand), so committing everything never takes Marvin's runtime
 * files. Best effort: a `.marvin` that leads out, or cannot be written, is left alone.
 */
export async function ensureMarvinGitignore(workingDir: string): Promise<void> {
  const checked = await checkedDir(workingDir, MARVIN_DIR).catch(() => undefined);
  if (!checked || !(await stat(checked.real).catch(() => undefined))?.isDirectory()) return;
  await writeMarvinGitignore(checked.root);
}

/**
 * The real path of Marvin's folder `relativeDir` of `workingDir`, for reading: it may not exist;
 * a ToolError when it (or a folder on the way) is a symlink leading outside the working dir.
 */
export async function resolveInsideDir(workingDir: string, relativeDir: string): Promise<string> {
  return (await checkedDir(workingDir, relativeDir)).real;
}

/**
 * Makes Marvin's folder `relativeDir` of `workingDir` ready for a write and returns its real path:
 * checked with the sandbox (a symlink leading outside the working dir is refused), created when
 * missing, and under `.marvin/` with a `.marvin/.gitignore` for the runtime files. Call it at every
 * write: a link made mid-session (by run_command) is caught the next time.
 */
export async function ensureInsideDir(workingDir: string, relativeDir: string): Promise<string> {
  const { root, real } = await checkedDir(workingDir, relativeDir);
  try {
    await mkdir(real, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST" || code === "ENOTDIR") throw notAFolder(relativeDir, root, code === "ENOTDIR");
    throw error;
  }
  // mkdir follows symlinks: make sure none was slipped onto the path meanwhile.
  const created = await realpath(real);
  if (!isInside(root, created)) throw leadsOutside(relativeDir, root, created);
  if (!(await stat(created)).isDirectory()) throw notAFolder(relativeDir, root);
  if (relativeDir.split(/[\\/]/)[0] === MARVIN_DIR) await writeMarvinGitignore(root);
  return created;
}

/**
 * `dir` relative to `workingDir` when its path lies inside it (also when given through the working
 * dir's real path), else undefined: a folder the user chose elsewhere is not Marvin's to check.
 */
export async function relativeInside(workingDir: string, dir: string): Promise<string | undefined> {
  for (const root of new Set([workingDir, await realpath(workingDir).catch(() => workingDir)])) {
    if (isInside(root, dir)) return relative(root, dir) || ".";
  }
  return undefined;
}
