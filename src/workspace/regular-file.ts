import { closeSync, constants, fstatSync, openSync, type Stats, statSync } from "node:fs";
import { type FileHandle, open, stat } from "node:fs/promises";
import { ToolError } from "../shared/tool-error.js";

/**
 * Read-only, and never waiting for a writer: should a FIFO be swapped in after the type check,
 * opening it returns at once (and the check on the open descriptor refuses it) instead of hanging.
 */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** What a file system entry is, for messages ("a named pipe (FIFO)"). */
export function describeFileType(stats: Stats): string {
  if (stats.isFile()) return "a regular file";
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a named pipe (FIFO)";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  if (stats.isSocket()) return "a socket";
  if (stats.isSymbolicLink()) return "a symbolic link";
  return "not a regular file";
}

/** The refusal for anything that is not a regular file. */
export function notRegularFile(shown: string, stats: Stats): ToolError {
  const kind = describeFileType(stats);
  return new ToolError(`${shown} is ${kind}, not a regular file; Marvin only reads and writes regular files.`);
}

function ensureRegular(stats: Stats, shown: string): void {
  if (!stats.isFile()) throw notRegularFile(shown, stats);
}

/**
 * Opens `path` for reading only when it is a regular file (a symlink to one counts): the type is
 * checked before opening, so a FIFO is never opened and a device never touched. Errors such as
 * ENOENT are thrown as they are, for the caller to word.
 */
export async function openRegularFile(path: string, shown = path): Promise<FileHandle> {
  ensureRegular(await stat(path), shown);
  const handle = await open(path, READ_FLAGS);
  try {
    ensureRegular(await handle.stat(), shown);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** The bytes of a regular file; see {@link openRegularFile}. */
export async function readRegularFile(path: string, shown = path): Promise<Buffer> {
  const handle = await openRegularFile(path, shown);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * The synchronous twin of {@link openRegularFile}, for tight loops; returns a file descriptor.
 * `typeChecked`: the caller has just seen the entry as a regular file (a directory listing's
 * entry type), so only the check on the open descriptor is repeated.
 */
export function openRegularFileSync(path: string, shown = path, typeChecked = false): number {
  if (!typeChecked) ensureRegular(statSync(path), shown);
  const descriptor = openSync(path, READ_FLAGS);
  try {
    ensureRegular(fstatSync(descriptor), shown);
    return descriptor;
  } catch (error) {
    closeSync(descriptor);
    throw error;
  }
}

/** True for the errors that mean "nothing is there". */
export function isMissingError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/** True when `path` is a directory (following links); false when it is missing or anything else. */
export async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}
