import { readTextIfExists, writeFileAtomic } from "./atomic-file.js";

/** Most entries kept in a profile's `history` file. */
export const INPUT_HISTORY_LIMIT = 1000;

/** Header line of history files written by libedit (Python's readline on macOS). */
const LIBEDIT_HEADER = "_HiStOrY_V2_";

function decodeLibedit(line: string): string {
  return line.replace(/\\([0-7]{3})/g, (_match, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

/**
 * A multi-line entry still takes one line of the file, as readline's format wants: each line
 * break is written `\012` (libedit's octal escape). A backslash that would read as one of these
 * escapes is written `\134`; every other character, backslashes included, is written as typed.
 */
const ESCAPED = { "\n": "\\012", "\\": "\\134" } as const;
const UNESCAPED: Record<string, string> = { "012": "\n", "134": "\\" };

function encodeEntry(entry: string): string {
  return entry.replace(/\n|\\(?=012|134)/g, (character) => ESCAPED[character as keyof typeof ESCAPED]);
}

function decodeEntry(line: string): string {
  return line.replace(/\\(012|134)/g, (_match, code: string) => UNESCAPED[code]!);
}

/** An entry as it is stored and recalled: line breaks kept (as `\n`), trailing blanks dropped. */
export function normalizeHistoryEntry(entry: string): string {
  return entry.replace(/\r\n?/g, "\n").trimEnd();
}

/**
 * The typed-input history shared by the TUI and the plain UI, oldest first. Reads both
 * GNU readline files (one entry per line) and libedit files (header + octal escapes);
 * multi-line entries come back with their line breaks.
 * A missing or unreadable file is an empty history: recall is a convenience, never a reason to fail.
 */
export async function loadInputHistory(path: string): Promise<string[]> {
  let text: string | undefined;
  try {
    text = await readTextIfExists(path);
  } catch {
    return [];
  }
  if (!text) return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  if (lines[0] === LIBEDIT_HEADER) return lines.slice(1).map(decodeLibedit).filter(Boolean);
  return lines.filter(Boolean).map(decodeEntry);
}

/**
 * Adds one entry and rewrites the file atomically, keeping the newest `limit` entries.
 * The file is re-read first, so entries another Marvin wrote meanwhile are kept. An entry
 * equal to the newest one is not repeated (readline's usual `ignoredups`). Returns the new history.
 */
export async function appendInputHistory(path: string, entry: string, limit = INPUT_HISTORY_LIMIT): Promise<string[]> {
  const normalized = normalizeHistoryEntry(entry);
  const entries = await loadInputHistory(path);
  if (!normalized.trim() || entries.at(-1) === normalized) return entries;
  entries.push(normalized);
  const kept = entries.slice(-limit);
  await writeFileAtomic(path, `${kept.map(encodeEntry).join("\n")}\n`);
  return kept;
}
