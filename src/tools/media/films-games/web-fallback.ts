import type { ToolContext } from "../../kit/define-tool.js";
import { searchDuckDuckGo, type WebResult } from "../../kit/duckduckgo/index.js";

/** A title found by a web search when no API key is set: what the page says, no ratings or ids. */
export interface FoundOnTheWeb {
  title: string;
  year: string | undefined;
  /** "TV Series", "TV Movie"… as IMDb's page title says; undefined for films and games. */
  kind: string | undefined;
  url: string;
  snippet: string;
}

/** The first plausible release year in a text: "Portal 2 is a 2011 puzzle game" → "2011". */
function firstYear(text: string): string | undefined {
  return /\b(18[89]\d|19\d\d|20\d\d)\b/.exec(text)?.[1];
}

/** IMDb page titles: "The Matrix (1999) - IMDb", "Breaking Bad (TV Series 2008–2013) - IMDb". */
const IMDB_TITLE = /^(.*?)\s*\((?:([A-Za-z][A-Za-z ]*?)\s+)?(\d{4})(?:[–-](?:\d{4})?\s*)?\)\s*(?:[-|–]\s*IMDb.*)?$/;
/** The title page itself, not one of its sub-pages (reviews, full credits…). */
const IMDB_TITLE_URL = /^https?:\/\/(?:www\.|m\.)?imdb\.com\/title\/(tt\d+)/;

/** The title id in an IMDb address: "https://www.imdb.com/title/tt0083658/?ref_=…" → "tt0083658". */
export function imdbIdOfAddress(url: string): string | undefined {
  return IMDB_TITLE_URL.exec(url)?.[1];
}

function imdbTitle(result: WebResult): FoundOnTheWeb | undefined {
  const id = imdbIdOfAddress(result.url);
  if (!id) return undefined;
  const heading = IMDB_TITLE.exec(result.title);
  const title = heading?.[1] ?? result.title.replace(/\s*[-|–]\s*IMDb.*$/, "");
  return {
    title,
    year: heading?.[3] ?? firstYear(result.snippet),
    kind: heading?.[2],
    url: `https://www.imdb.com/title/${id}/`,
    snippet: result.snippet,
  };
}

function distinct(found: FoundOnTheWeb[]): FoundOnTheWeb[] {
  return found.filter((item, index) => found.findIndex((other) => other.url === item.url) === index);
}

/** IMDb title pages for `words`, by a DuckDuckGo search restricted to imdb.com. */
export async function searchImdbPages(context: ToolContext, words: string, limit: number): Promise<FoundOnTheWeb[]> {
  const results = await searchDuckDuckGo(context, `${words} site:imdb.com/title`, { limit: limit * 2 });
  const titles = results.map(imdbTitle).filter((item) => item !== undefined);
  return distinct(titles).slice(0, limit);
}

/** Wikipedia's lead says what a game is and when it came out: "Portal 2 is a 2011 puzzle-platform game…". */
function wikipediaGame(result: WebResult): FoundOnTheWeb | undefined {
  if (!/^https?:\/\/[a-z-]+\.wikipedia\.org\/wiki\//.test(result.url)) return undefined;
  const title = result.title.replace(/\s*[-–|]\s*Wikipedia.*$/, "").replace(/\s*\((?:\d{4} )?video game\)$/, "");
  return { title, year: firstYear(result.snippet), kind: undefined, url: result.url, snippet: result.snippet };
}

/** Wikipedia articles about video games matching `words`, by a DuckDuckGo search. */
export async function searchGamePages(context: ToolContext, words: string, limit: number): Promise<FoundOnTheWeb[]> {
  const results = await searchDuckDuckGo(context, `${words} video game site:en.wikipedia.org`, { limit: limit * 2 });
  const games = results.map(wikipediaGame).filter((item) => item !== undefined);
  return distinct(games).slice(0, limit);
}

/** "The Matrix (1999, TV Series) — https://…" and the snippet on the next line. */
export function describeFound(item: FoundOnTheWeb): string {
  const about = [item.year, item.kind].filter(Boolean).join(", ");
  const heading = `${item.title}${about ? ` (${about})` : ""} — ${item.url}`;
  return item.snippet ? `${heading}\n   ${item.snippet}` : heading;
}

/** Numbered lines, one title each, with its snippet below. */
export function listFound(found: FoundOnTheWeb[]): string {
  return found.map((item, index) => `${index + 1}. ${describeFound(item)}`).join("\n");
}
