import { lstat, readdir, readlink, realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { ToolError } from "../shared/tool-error.js";

/** How a path request is checked by {@link resolveInside}. */
interface ResolveInsideOptions {
  /**
   * The path is about to be written: named in messages, and refused inside a `.git` folder. Symlinks are still
   * resolved, never left dangling out.
   */
  write?: boolean;
  /** Top-level names inside the root that file tools must not touch (e.g. ".tickets"). */
  blocked?: readonly string[];
  /** How the root is called in messages; default "Working dir". */
  label?: string;
}

const MAX_SYMLINK_HOPS = 40;
const TREE_DEPTH = 2;
const TREE_MAX_ENTRIES = 40;
const TREE_SKIPPED = new Set([".git", "node_modules"]);

function isErrno(error: unknown, ...codes: string[]): boolean {
  return codes.includes((error as NodeJS.ErrnoException | undefined)?.code ?? "");
}

/** True when `candidate` is `root` itself or lies below it (no sibling-prefix confusion). */
export function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * The real path `path` designates, following every symlink (also dangling ones) and
 * allowing the tail not to exist yet: realpath of the deepest existing ancestor + the rest.
 */
export async function realpathAllowingMissing(path: string, hops = 0): Promise<string> {
  if (hops > MAX_SYMLINK_HOPS) throw new ToolError(`Too many levels of symbolic links while resolving ${path}.`);
  try {
    return await realpath(path);
  } catch (error) {
    if (isErrno(error, "ELOOP")) throw new ToolError(`Too many levels of symbolic links while resolving ${path}.`);
    if (!isErrno(error, "ENOENT", "ENOTDIR")) throw error;
  }
  const link = await lstat(path).catch(() => undefined);
  if (link?.isSymbolicLink()) {
    const target = resolve(dirname(path), await readlink(path));
    return realpathAllowingMissing(target, hops + 1);
  }
  const parent = dirname(path);
  if (parent === path) return path;
  return join(await realpathAllowingMissing(parent, hops), basename(path));
}

/** A short listing of `root` (depth 2, at most 40 entries) so the model can pick a correct path. */
export async function treeListing(root: string, depth = TREE_DEPTH, maxEntries = TREE_MAX_ENTRIES): Promise<string> {
  const lines: string[] = [];
  let omitted = 0;
  async function walk(dir: string, level: number): Promise<void> {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (lines.length >= maxEntries) {
        omitted++;
        continue;
      }
      const isDir = entry.isDirectory();
      lines.push(`${"  ".repeat(level)}${entry.name}${isDir ? "/" : ""}`);
      if (isDir && level + 1 < depth && !TREE_SKIPPED.has(entry.name)) await walk(join(dir, entry.name), level + 1);
    }
  }
  await walk(root, 0);
  if (lines.length === 0) return "(empty directory)";
  if (omitted > 0) lines.push(`… (${omitted} more entries not shown)`);
  return lines.join("\n");
}

async function escapeError(problem: string, root: string, label: string): Promise<ToolError> {
  return new ToolError(
    `${problem}\n${label}: ${root}\nUse a path relative to it, like 'src/main.ts'.\n\nProject ` +
      `structure:\n${await treeListing(root)}`,
  );
}

function blockedError(name: string): ToolError {
  return new ToolError(
    name === ".tickets"
      ? "Direct access to .tickets/ is not allowed. Use the ticket tools instead (create_ticket, ticket_show, " +
          "ticket_list…)."
      : `Access to ${name}/ is not allowed for this tool.`,
  );
}

/**
 * True when `path` names git's own folder `.git` or something in it (any case: some file systems ignore
 * it). What is written there configures git, and so can make it run a program.
 */
function isInGitFolder(path: string): boolean {
  return path.split(/[\\/]/).some((segment) => segment.toLowerCase() === ".git");
}

function gitFolderError(requested: string): ToolError {
  return new ToolError(
    `Cannot write to ${requested}: no tool writes git's own .git or anything inside it (its config and hooks ` +
      "can make git run programs). Change git's settings with run_command, e.g. `git config`.",
  );
}

function firstSegment(relativePath: string): string {
  return relativePath.split(/[\\/]/).find((segment) => segment !== "" && segment !== ".") ?? "";
}

/** The real path of a sandbox root, or a ToolError saying it is gone. */
export async function realRoot(root: string, label = "Working dir"): Promise<string> {
  return realpath(root).catch(() => {
    throw new ToolError(`${label} ${root} does not exist. Call set_working_dir with an existing directory.`);
  });
}

/**
 * Resolves `requested` (relative to `root`) to its absolute real path inside `root`.
 * Throws ToolError for absolute paths, `..` segments, blocked top-level names, and any path
 * whose real location (after following symlinks, including dangling ones) is outside `root`.
 * The returned path has every symlink resolved, so a later write lands on the checked file.
 */
export async function resolveInside(
  root: string,
  requested: string,
  options: ResolveInsideOptions = {},
): Promise<string> {
  const label = options.label ?? "Working dir";
  const action = options.write ? "write to" : "access";
  const rootReal = await realRoot(root, label);
  const trimmed = requested.trim() === "" ? "." : requested.trim();
  if (trimmed.includes("\0")) throw new ToolError(`The path ${JSON.stringify(requested)} contains a NUL character.`);
  if (isAbsolute(trimmed) || /^[A-Za-z]:[\\/]/.test(trimmed) || trimmed.startsWith("~")) {
    throw await escapeError(`Absolute paths not allowed: ${requested}`, rootReal, label);
  }
  if (trimmed.split(/[\\/]/).includes("..")) {
    throw await escapeError(`Path traversal not allowed: ${requested}`, rootReal, label);
  }
  const blocked = options.blocked ?? [];
  if (blocked.includes(firstSegment(trimmed))) throw blockedError(firstSegment(trimmed));

  const real = await realpathAllowingMissing(join(rootReal, trimmed));
  if (!isInside(rootReal, real)) {
    throw await escapeError(
      `Cannot ${action} ${requested}: it is a symbolic link (or lies under one) that points outside the ` +
        `${label.toLowerCase()}, to ${real}.`,
      rootReal,
      label,
    );
  }
  const realFirst = firstSegment(relative(rootReal, real));
  if (blocked.includes(realFirst)) throw blockedError(realFirst);
  if (options.write && (isInGitFolder(trimmed) || isInGitFolder(real))) throw gitFolderError(requested);
  return real;
}
