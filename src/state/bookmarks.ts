import { type Loaded, loadJsonFile } from "./atomic-file.js";
import { updateJsonState } from "./locked-update.js";

/** One entry of `bookmarks.json` (a JSON array, oldest first). */
export interface Bookmark {
  url: string;
  title: string;
  tags: string[];
  notes: string;
  /** ISO 8601 time of the first save. */
  saved_at: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;
const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** Tags as stored, or as a comma-separated string (a hand-edited file): trimmed, without empties. */
function tagList(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return [];
  if (typeof value === "string") return splitTags(value);
  if (!Array.isArray(value) || !value.every((tag) => typeof tag === "string")) return undefined;
  return splitTags(value.join(","));
}

/** "rust, #CLI,,tools" → ["rust", "CLI", "tools"]: trimmed, no leading '#', duplicates (any case) dropped. */
export function splitTags(tags: string): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const raw of tags.split(",")) {
    const tag = raw.trim().replace(/^#+/, "").trim();
    if (!tag || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    result.push(tag);
  }
  return result;
}

function parseBookmark(raw: unknown): Bookmark | undefined {
  if (!isRecord(raw) || typeof raw.url !== "string" || raw.url.trim() === "") return undefined;
  const tags = tagList(raw.tags);
  if (!tags) return undefined;
  return { url: raw.url, title: text(raw.title), tags, notes: text(raw.notes), saved_at: text(raw.saved_at) };
}

function parseBookmarks(raw: unknown): Bookmark[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const bookmarks = raw.map(parseBookmark);
  return bookmarks.every((bookmark) => bookmark !== undefined) ? (bookmarks as Bookmark[]) : undefined;
}

/**
 * Reads `bookmarks.json`. Missing → none. Unreadable or of the wrong shape → none, the file moved
 * aside (`bookmarks.json.corrupt-<time>`) and a warning naming where it went.
 */
export function loadBookmarks(path: string): Promise<Loaded<Bookmark[]>> {
  return loadJsonFile(path, parseBookmarks, () => []);
}

/**
 * Reads the bookmarks, lets `change` edit the list in place, and writes it back atomically, all
 * under `bookmarks.json.lock` so that two Marvins saving at once both keep their bookmark.
 */
export function updateBookmarks<T>(
  path: string,
  change: (bookmarks: Bookmark[]) => T,
): Promise<{ result: T; warning?: string }> {
  return updateJsonState(path, loadBookmarks, change);
}
