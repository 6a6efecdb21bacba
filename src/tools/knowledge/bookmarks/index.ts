import { z } from "zod";
import { type Bookmark, loadBookmarks, splitTags, updateBookmarks } from "../../../state/bookmarks.js";
import { defineTool, type ToolContext, ToolError } from "../../kit/define-tool.js";
import { resultLimit } from "../../kit/lenient-parameters.js";
import { formatBookmark, formatBookmarks, hasTag, newestFirst, searchBookmarks, tagsInUse } from "./bookmark-views.js";

function bookmarksPath(context: ToolContext): string {
  return context.profiles.paths(context.profileName).bookmarks;
}

/** The URL to store: trimmed, `https://` added when no scheme is given ("example.org/page"). */
function normalisedUrl(url: string): string {
  const trimmed = url.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `https://${trimmed}`;
  try {
    new URL(withScheme);
  } catch {
    throw new ToolError(`'${url}' is not a web address; give a full URL such as https://example.org/page.`);
  }
  return withScheme;
}

/** Two spellings of one address ("https://example.org" and "https://example.org/") are one bookmark. */
const sameUrl = (a: string, b: string) => new URL(a).href === new URL(b).href;

const withWarning = (warning: string | undefined, text: string) => (warning ? `${warning}\n\n${text}` : text);

interface SaveRequest {
  url: string;
  title: string;
  tags: string;
  notes: string;
}

/** Adds the bookmark, or updates the one with the same URL: given title and notes replace, tags are added. */
function saveInto(bookmarks: Bookmark[], request: SaveRequest): { bookmark: Bookmark; updated: boolean } {
  const url = normalisedUrl(request.url);
  const tags = splitTags(request.tags);
  const existing = bookmarks.find((bookmark) => sameUrl(bookmark.url, url));
  if (!existing) {
    const bookmark = {
      url,
      title: request.title.trim(),
      tags,
      notes: request.notes.trim(),
      saved_at: new Date().toISOString(),
    };
    bookmarks.push(bookmark);
    return { bookmark, updated: false };
  }
  if (request.title.trim()) existing.title = request.title.trim();
  if (request.notes.trim()) existing.notes = request.notes.trim();
  existing.tags = splitTags([...existing.tags, ...tags].join(","));
  return { bookmark: existing, updated: true };
}

const limit = (fallback: number) => resultLimit(200, fallback, "Most bookmarks to show");

export const bookmarkTools = [
  defineTool({
    name: "bookmark_save",
    effect: "write",
    description:
      "Save a web address as a bookmark with an optional title, tags and notes. Saving an address again updates " +
      "it: a new title or notes replace the old ones, tags are added.",
    parameters: z.object({
      url: z.string().min(1).describe("e.g. https://example.org/article"),
      title: z.string().default(""),
      tags: z.string().default("").describe("Comma-separated, e.g. 'rust, cli'"),
      notes: z.string().default(""),
    }),
    handler: async (request, context) => {
      const { result, warning } = await updateBookmarks(bookmarksPath(context), (bookmarks) =>
        saveInto(bookmarks, request),
      );
      const verb = result.updated ? "Updated the bookmark" : "Saved a bookmark";
      return withWarning(warning, `${verb}:\n${formatBookmark(result.bookmark, 1)}`);
    },
  }),
  defineTool({
    name: "bookmark_list",
    effect: "read",
    description: "List saved bookmarks, newest first; give tag to list only those with that tag.",
    parameters: z.object({
      tag: z.string().default("").describe("Only bookmarks with this tag; empty for all"),
      limit: limit(20),
    }),
    handler: async ({ tag, limit }, context) => {
      const { value: bookmarks, warning } = await loadBookmarks(bookmarksPath(context));
      const chosen = newestFirst(tag.trim() ? bookmarks.filter((bookmark) => hasTag(bookmark, tag)) : bookmarks);
      if (bookmarks.length === 0) return withWarning(warning, "No bookmarks saved yet. Save one with bookmark_save.");
      if (chosen.length === 0) {
        return withWarning(
          warning,
          `No bookmarks tagged '${tag.trim()}'. Tags in use: ${tagsInUse(bookmarks).join(", ") || "none"}.`,
        );
      }
      const which = tag.trim() ? ` tagged '${tag.trim()}'` : "";
      const shown = chosen.slice(0, limit);
      const heading = `Bookmarks${which} (${shown.length} of ${chosen.length}, newest first):`;
      return withWarning(warning, `${heading}\n${formatBookmarks(shown)}`);
    },
  }),
  defineTool({
    name: "bookmark_search",
    effect: "read",
    description:
      "Find bookmarks whose title, tags, URL or notes contain every word of the query (any case); best matches first.",
    parameters: z.object({
      query: z.string().min(1).describe("Words to look for, e.g. 'rust async'"),
      limit: limit(10),
    }),
    handler: async ({ query, limit }, context) => {
      const { value: bookmarks, warning } = await loadBookmarks(bookmarksPath(context));
      const found = searchBookmarks(bookmarks, query);
      if (found.length === 0) {
        const saved = bookmarks.length === 1 ? "1 bookmark" : `${bookmarks.length} bookmarks`;
        return withWarning(warning, `No bookmark matches '${query}' (searched ${saved}).`);
      }
      const shown = found.slice(0, limit);
      const heading = `Bookmarks matching '${query}' (${shown.length} of ${found.length}):`;
      return withWarning(warning, `${heading}\n${formatBookmarks(shown)}`);
    },
  }),
];
