import { preview } from "../../../shared/truncate.js";
import type { Bookmark } from "../../../state/bookmarks.js";

const NOTES_PREVIEW_CHARS = 200;

const lower = (value: string) => value.toLowerCase();

/** One numbered entry: title and URL, then tags, save date and notes on a second line. */
export function formatBookmark(bookmark: Bookmark, number: number): string {
  const head = `${number}. ${bookmark.title || "(untitled)"} — ${bookmark.url}`;
  const facts = [
    bookmark.tags.length ? `tags: ${bookmark.tags.join(", ")}` : "",
    bookmark.saved_at ? `saved ${bookmark.saved_at.slice(0, 10)}` : "",
    bookmark.notes ? `notes: ${preview(bookmark.notes, NOTES_PREVIEW_CHARS)}` : "",
  ].filter(Boolean);
  return facts.length ? `${head}\n   ${facts.join(" · ")}` : head;
}

export function formatBookmarks(bookmarks: Bookmark[]): string {
  return bookmarks.map((bookmark, index) => formatBookmark(bookmark, index + 1)).join("\n");
}

export function hasTag(bookmark: Bookmark, tag: string): boolean {
  return bookmark.tags.some((own) => lower(own) === lower(tag.trim().replace(/^#+/, "")));
}

/** Every tag in use, each once, in the case first seen, sorted. */
export function tagsInUse(bookmarks: Bookmark[]): string[] {
  const byLower = new Map<string, string>();
  for (const tag of bookmarks.flatMap((bookmark) => bookmark.tags))
    if (!byLower.has(lower(tag))) byLower.set(lower(tag), tag);
  return [...byLower.values()].sort((a, b) => a.localeCompare(b));
}

/** Newest save first; bookmarks without a date keep their order, after the dated ones. */
export function newestFirst(bookmarks: Bookmark[]): Bookmark[] {
  return bookmarks
    .map((bookmark, index) => ({ bookmark, index }))
    .sort((a, b) => b.bookmark.saved_at.localeCompare(a.bookmark.saved_at) || b.index - a.index)
    .map(({ bookmark }) => bookmark);
}

/** How much a word found in each field counts: a title hit says more than one in the notes. */
const FIELD_WEIGHTS = [
  { weight: 4, field: (bookmark: Bookmark) => bookmark.title },
  { weight: 3, field: (bookmark: Bookmark) => bookmark.tags.join(" ") },
  { weight: 2, field: (bookmark: Bookmark) => bookmark.url },
  { weight: 1, field: (bookmark: Bookmark) => bookmark.notes },
];

/** 0 unless every word of the query occurs in some field (case-insensitively); more for better fields. */
function score(bookmark: Bookmark, words: string[]): number {
  let total = 0;
  for (const word of words) {
    const hits = FIELD_WEIGHTS.filter(({ field }) => lower(field(bookmark)).includes(word));
    if (hits.length === 0) return 0;
    total += Math.max(...hits.map(({ weight }) => weight));
  }
  return total;
}

/** Bookmarks matching every word of `query` in title, tags, URL or notes; best first, then newest. */
export function searchBookmarks(bookmarks: Bookmark[], query: string): Bookmark[] {
  const words = lower(query).split(/\s+/).filter(Boolean);
  return newestFirst(bookmarks)
    .map((bookmark) => ({ bookmark, score: score(bookmark, words) }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score)
    .map(({ bookmark }) => bookmark);
}
