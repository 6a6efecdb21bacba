import { editDistance } from "../../../../shared/edit-distance.js";

/** One article, as every news source is read into. */
export interface NewsItem {
  title: string;
  url: string;
  /** The publication: "Reuters". */
  source: string;
  published: Date | undefined;
  snippet: string;
  /** The service it came from: "GNews". */
  via: string;
}

/** The address without scheme, "www.", tracking parameters, fragment and trailing slash. */
function urlKey(url: string): string {
  try {
    const parsed = new URL(url);
    for (const name of [...parsed.searchParams.keys()]) {
      if (/^(utm_|fbclid$|gclid$|ocid$|cmpid$)/i.test(name)) parsed.searchParams.delete(name);
    }
    const host = parsed.hostname.replace(/^www\./, "");
    return `${host}${parsed.pathname.replace(/\/+$/, "")}${parsed.search}`.toLowerCase();
  } catch {
    return url.toLowerCase();
  }
}

/** The title's words only, lower case, without a trailing " - Publication" or " | Publication". */
function titleKey(item: NewsItem): string {
  const withoutSource = item.source
    ? item.title.replace(new RegExp(`\\s+[-|–—]\\s+${escapeRegExp(item.source)}\\s*$`, "i"), "")
    : item.title;
  return withoutSource
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Titles that differ by a few characters at most (a quote mark, a dash, a typo fixed). */
function nearlySame(a: string, b: string): boolean {
  if (a === b) return true;
  const allowed = Math.floor(Math.min(a.length, b.length) / 10);
  return Math.abs(a.length - b.length) <= allowed && editDistance(a, b) <= allowed;
}

/**
 * The articles of every source, each story once (same address, or a near-identical title; the
 * first source listed wins), newest first, undated ones last.
 */
export function mergeNews(sources: readonly NewsItem[][]): NewsItem[] {
  const kept: Array<{ item: NewsItem; url: string; title: string }> = [];
  for (const item of sources.flat()) {
    const url = urlKey(item.url);
    const title = titleKey(item);
    if (kept.some((seen) => seen.url === url || (title !== "" && nearlySame(seen.title, title)))) continue;
    kept.push({ item, url, title });
  }
  const time = (item: NewsItem) => item.published?.getTime() ?? Number.NEGATIVE_INFINITY;
  return kept.map(({ item }) => item).sort((a, b) => time(b) - time(a));
}
