import { link, unlink } from "node:fs/promises";
import { extname, join } from "node:path";
import { parse as parseContentDisposition } from "content-disposition";

const MAX_NAME_BYTES = 200;

/** Control characters and the line and paragraph separators: they become "_". */
const CONTROL = /[\p{Cc}\u2028\u2029<>:"|?*]/gu;
/**
 * Invisible format characters, dropped: above all the direction controls that make "\u202efdp.exe"
 * show as "exe.pdf". The zero-width joiner and non-joiner stay, as scripts and emoji need them.
 */
const INVISIBLE = /(?![\u200c\u200d])\p{Cf}/gu;

/**
 * A safe file name from what a server or the model suggested: the last path part only, no control,
 * invisible or reserved characters, no leading dots (no hidden or "." / ".." names), at most 200
 * bytes with the extension kept; "download" when nothing is left.
 */
export function safeFileName(suggested: string): string {
  const lastPart =
    suggested
      .split(/[\\/]/)
      .filter((part) => part.trim() !== "")
      .at(-1) ?? "";
  let name = lastPart
    .replace(INVISIBLE, "")
    .replace(CONTROL, "_")
    .replace(/^[\s.]+/, "")
    .replace(/[\s.]+$/, "")
    .trim();
  if (Buffer.byteLength(name) > MAX_NAME_BYTES) {
    const extension = extname(name).slice(0, 16);
    let stem = name.slice(0, name.length - extension.length);
    while (Buffer.byteLength(stem + extension) > MAX_NAME_BYTES) stem = stem.slice(0, -1);
    name = stem + extension;
  }
  return name || "download";
}

/** The file name a server gave in Content-Disposition (filename* preferred), if any. */
export function dispositionFileName(header: string | undefined): string | undefined {
  if (!header) return undefined;
  try {
    const name = parseContentDisposition(header).parameters.filename;
    return name?.trim() ? name : undefined;
  } catch {
    return undefined;
  }
}

/** The last part of a URL's path, decoded ("report%202026.pdf" → "report 2026.pdf"). */
export function urlFileName(url: string): string | undefined {
  try {
    const last = new URL(url).pathname.split("/").filter(Boolean).at(-1);
    return last ? decodeURIComponent(last) : undefined;
  } catch {
    return undefined;
  }
}

/** "name.ext", then "name (1).ext", "name (2).ext"… */
function numbered(name: string, index: number): string {
  if (index === 0) return name;
  const extension = extname(name);
  return `${name.slice(0, name.length - extension.length)} (${index})${extension}`;
}

/**
 * Gives the finished file at `staged` its name in `folder` without ever replacing anything: a hard
 * link fails when the name is taken (by a file, a folder or a symbolic link, which is never followed),
 * and the next number is tried. Returns the path it got.
 */
export async function placeWithoutOverwriting(staged: string, folder: string, name: string): Promise<string> {
  for (let index = 0; index < 1000; index++) {
    const target = join(folder, numbered(name, index));
    try {
      await link(staged, target);
      await unlink(staged);
      return target;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  throw new Error(`every name from ${name} to ${numbered(name, 999)} is taken in ${folder}`);
}
