import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { errorMessage } from "../shared/error-message.js";

interface AtomicWriteOptions {
  /** Permissions of the written file; default 0o600 (state files are private). */
  mode?: number;
  /** fsync before the rename (default true). Project files edited by tools skip it: the rename alone keeps readers
   * safe. */
  sync?: boolean;
}

/**
 * Writes a file so that readers see the old or the new content, never a torn one:
 * temp file in the same directory, fsync, rename over the target.
 */
export async function writeFileAtomic(
  path: string,
  content: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  const handle = await open(temp, "w", 0o600);
  try {
    if (options.mode !== undefined) await handle.chmod(options.mode);
    await handle.writeFile(content);
    if (options.sync ?? true) await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

export async function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
}

export async function readTextIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Result of loading a state file: the value, plus a warning when the file was unusable. */
export interface Loaded<T> {
  value: T;
  warning?: string;
}

function timestampForFileName(date: Date): string {
  return date.toISOString().replace(/[:.]/g, "-");
}

/**
 * Moves an unreadable state file aside (`<file>.corrupt-<ts>`) so that the next write,
 * which starts from the default, can never destroy the user's data, and so the next
 * start does not warn about the same file again.
 */
export async function preserveCorruptFile(path: string, now = new Date()): Promise<string> {
  const aside = `${path}.corrupt-${timestampForFileName(now)}`;
  await rename(path, aside);
  return aside;
}

/** What a state file's parser makes of its text: the value, or what is wrong with it. */
export type Parsed<T> = { value: T } | { problem: string };

/** The text of a state file (undefined when missing); a directory in its place is a problem, not a crash. */
export async function readStateText(path: string): Promise<Parsed<string | undefined>> {
  try {
    return { value: await readTextIfExists(path) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EISDIR") return { problem: "it is a directory, not a file" };
    throw error;
  }
}

/**
 * Reads a state file. Missing → the default, silently. Unusable (a directory, or text the
 * parser rejects) → the default, a preserved copy, and a warning that says where it is and
 * what is used instead (`instead`, e.g. "starting from an empty one").
 */
export async function loadStateFile<T>(
  path: string,
  parse: (text: string) => Parsed<T>,
  fallback: () => T,
  instead: string,
): Promise<Loaded<T>> {
  const read = await readStateText(path);
  if ("value" in read && read.value === undefined) return { value: fallback() };
  const parsed = "value" in read ? parse(read.value!) : read;
  if ("value" in parsed) return parsed;
  const copy = await preserveCorruptFile(path);
  const warning = `Could not read ${path}: ${parsed.problem}. It was moved to ${copy}; ${instead}.`;
  return { value: fallback(), warning };
}

/**
 * Reads a JSON state file, checked by `validate` (undefined = the wrong shape), like
 * `loadStateFile`; an empty file counts as missing.
 */
export function loadJsonFile<T>(
  path: string,
  validate: (raw: unknown) => T | undefined,
  fallback: () => T,
): Promise<Loaded<T>> {
  const parse = (text: string): Parsed<T> => {
    if (text.trim() === "") return { value: fallback() };
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      return { problem: `it is not valid JSON (${errorMessage(error)})` };
    }
    const value = validate(raw);
    return value === undefined ? { problem: "it does not have the expected structure" } : { value };
  };
  return loadStateFile(path, parse, fallback, "starting from an empty one");
}
