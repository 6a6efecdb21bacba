import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

export interface AtomicWriteOptions {
  /** Permissions of the written file; default 0o600 (state files are private). */
  mode?: number;
  /** fsync before the rename (default true). Project files edited by tools skip it: the rename alone keeps readers safe. */
  sync?: boolean;
}

/**
 * Writes a file so that readers see the old or the new content, never a torn one:
 * temp file in the same directory, fsync, rename over the target.
 */
export async function writeFileAtomic(path: string, content: string, options: AtomicWriteOptions = {}): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  const handle = await open(temp, "w", 0o600);
  try {
    if (options.mode !== undefined) await handle.chmod(options.mode);
    await handle.writeFile(content, "utf8");
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

/**
 * Reads and validates a JSON state file. Missing → the default, silently. Unparseable or
 * of the wrong shape → the default, a preserved copy, and a warning that says where it is.
 */
export async function loadJsonFile<T>(path: string, parse: (raw: unknown) => T | undefined, fallback: () => T): Promise<Loaded<T>> {
  const text = await readTextIfExists(path);
  if (text === undefined || text.trim() === "") return { value: fallback() };
  let problem: string;
  try {
    const parsed = parse(JSON.parse(text));
    if (parsed !== undefined) return { value: parsed };
    problem = "it does not have the expected structure";
  } catch (error) {
    problem = `it is not valid JSON (${(error as Error).message})`;
  }
  const copy = await preserveCorruptFile(path);
  return { value: fallback(), warning: `Could not read ${path}: ${problem}. It was moved to ${copy}; starting from an empty one.` };
}
