import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { preview } from "../../../shared/truncate.js";
import { openRegularFile } from "../../../workspace/regular-file.js";

interface NoteMatch {
  /** Path relative to the searched folder, '/'-separated. */
  path: string;
  /** 1-based line number; 0 when the file name matched. */
  line: number;
  text: string;
}

interface NoteSearchResult {
  matches: NoteMatch[];
  filesSearched: number;
  /** More matches existed than `maxResults`. */
  truncated: boolean;
}

const MAX_FILE_BYTES = 2_000_000;
const MAX_FILES = 20_000;
const MAX_DEPTH = 20;

/** Text files under `dir`, depth first, sorted; symlinks are never followed (no way out of the root). */
async function* noteFiles(dir: string, prefix = "", depth = 0): AsyncGenerator<{ path: string; shown: string }> {
  if (depth > MAX_DEPTH) return;
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const shown = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) yield* noteFiles(join(dir, entry.name), shown, depth + 1);
    else if (entry.isFile()) yield { path: join(dir, entry.name), shown };
  }
}

/** The file's text, or undefined when it is too large, binary (a NUL byte in it) or not a regular file. */
async function readTextNote(path: string): Promise<string | undefined> {
  const handle = await openRegularFile(path).catch(() => undefined);
  if (!handle) return undefined;
  try {
    const { size } = await handle.stat();
    if (size > MAX_FILE_BYTES) return undefined;
    const bytes = await handle.readFile();
    return bytes.includes(0) ? undefined : bytes.toString("utf8");
  } finally {
    await handle.close();
  }
}

/** Case-insensitive literal search of file names and lines under `dir`. */
export async function searchNotes(
  dir: string,
  query: string,
  maxResults: number,
  signal: AbortSignal,
): Promise<NoteSearchResult> {
  const needle = query.toLowerCase();
  const matches: NoteMatch[] = [];
  let filesSearched = 0;
  let truncated = false;
  const add = (match: NoteMatch): boolean => {
    if (matches.length >= maxResults) {
      truncated = true;
      return false;
    }
    matches.push(match);
    return true;
  };
  for await (const file of noteFiles(dir)) {
    if (signal.aborted || filesSearched >= MAX_FILES || truncated) break;
    filesSearched++;
    if (file.shown.toLowerCase().includes(needle) && !add({ path: file.shown, line: 0, text: "(file name matches)" }))
      break;
    const text = await readTextNote(file.path);
    if (text === undefined) continue;
    const lines = text.split(/\r?\n/);
    for (let index = 0; index < lines.length; index++) {
      if (
        lines[index]!.toLowerCase().includes(needle) &&
        !add({ path: file.shown, line: index + 1, text: preview(lines[index]!, 200) })
      )
        break;
    }
  }
  return { matches, filesSearched, truncated };
}
