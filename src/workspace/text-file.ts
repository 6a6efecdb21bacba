import { lstat, mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { ToolError } from "../shared/tool-error.js";
import { writeFileAtomic } from "../state/atomic-file.js";
import { readRegularFile } from "./regular-file.js";

function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Reads a text file to edit it. Undefined when it does not exist; ToolError when it is a
 * directory, a FIFO or anything else but a regular file (never opened), or not valid UTF-8
 * (rewriting it as text would corrupt it).
 */
export async function readEditableText(path: string, shownPath: string): Promise<string | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(path, shownPath);
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return undefined;
    throw error;
  }
  const text = bytes.toString("utf8");
  if (text.includes("\uFFFD") && !Buffer.from(text, "utf8").equals(bytes)) {
    throw new ToolError(`${shownPath} is not a UTF-8 text file; it cannot be edited with this tool.`);
  }
  return text;
}

/** Creates a new file exclusively (never through a symlink planted in its place); false when something is already
 * there. */
export async function createTextFile(path: string, content: string): Promise<boolean> {
  await mkdir(dirname(path), { recursive: true });
  try {
    await writeFile(path, content, { encoding: "utf8", flag: "wx" });
    return true;
  } catch (error) {
    if (errnoCode(error) === "EEXIST") return false;
    throw error;
  }
}

/** Writes a text file: a new one with the usual permissions, an existing one replaced atomically, keeping its mode. */
export async function writeTextFile(path: string, content: string): Promise<void> {
  const existing = await lstat(path).catch(() => undefined);
  if (!existing && (await createTextFile(path, content))) return;
  const current = existing ?? (await lstat(path));
  if (!current.isFile()) throw new ToolError(`${path} exists and is not a regular file; it was not overwritten.`);
  await writeFileAtomic(path, content, { mode: current.mode & 0o7777, sync: false });
}
