import { z } from "zod";
import { defineTool, type ToolContext, ToolError } from "../../kit/define-tool.js";
import { type ListedTitle, OMDB_KEY_HELP, omdbDetails, searchOmdb, type TitleDetails } from "./omdb.js";
import { describeFound, type FoundOnTheWeb, imdbIdOfAddress, listFound, searchImdbPages } from "./web-fallback.js";

const WEB_RESULTS = 8;

const hasOmdbKey = (context: ToolContext) => Boolean(context.env.OMDB_API_KEY?.trim());

const WITHOUT_KEY =
  "OMDB_API_KEY is not set, so this comes from a web search of IMDb: titles, years and links only. " +
  `With OMDB_API_KEY (${OMDB_KEY_HELP}) you get ratings, plot, director, cast and runtime.`;

/** OMDb writes "N/A" where it has nothing. */
const known = (value: string | undefined) => (value && value !== "N/A" ? value : undefined);

function listedLine(title: ListedTitle, index: number): string {
  return `${index + 1}. ${title.Title} (${title.Year}, ${title.Type}) — IMDb id ${title.imdbID}`;
}

function detailLines(movie: TitleDetails): string[] {
  const ratings = movie.Ratings.map((rating) => `${rating.Source} ${rating.Value}`);
  const votes = known(movie.imdbVotes);
  if (ratings.length === 0 && known(movie.imdbRating)) ratings.push(`IMDb ${movie.imdbRating}/10`);
  const fields: Array<[string, string | undefined]> = [
    ["Type", known(movie.Type)],
    ["Released", known(movie.Released)],
    ["Rated", known(movie.Rated)],
    ["Runtime", known(movie.Runtime)],
    ["Seasons", known(movie.totalSeasons)],
    ["Genre", known(movie.Genre)],
    ["Director", known(movie.Director)],
    ["Writer", known(movie.Writer)],
    ["Cast", known(movie.Actors)],
    ["Ratings", ratings.length > 0 ? `${ratings.join(", ")}${votes ? ` (${votes} IMDb votes)` : ""}` : undefined],
    ["Awards", known(movie.Awards)],
    ["Box office", known(movie.BoxOffice)],
    ["Language", known(movie.Language)],
    ["Country", known(movie.Country)],
    ["Plot", known(movie.Plot)],
  ];
  return fields.filter(([, value]) => value !== undefined).map(([label, value]) => `${label}: ${value}`);
}

function formatDetails(movie: TitleDetails): string {
  const year = known(movie.Year);
  const heading = `${movie.Title}${year ? ` (${year})` : ""} — https://www.imdb.com/title/${movie.imdbID}/`;
  return [heading, ...detailLines(movie)].join("\n");
}

function webList(found: FoundOnTheWeb[], what: string): string {
  if (found.length === 0) return `A web search found no IMDb page for ${what}.\n${WITHOUT_KEY}`;
  return `IMDb pages for ${what}:\n${listFound(found)}\n${WITHOUT_KEY}`;
}

const IMDB_ID = /^(tt\d+)?$/;

/** Models often pass a title's IMDb address as its id. */
const idOfAddress = (value: unknown) => (typeof value === "string" ? (imdbIdOfAddress(value.trim()) ?? value) : value);

const searchMovies = defineTool({
  name: "search_movies",
  description:
    "Search films and TV series by title (OMDb with OMDB_API_KEY, else a web search of IMDb): title, year, " +
    "type and IMDb id of each match. Details with get_movie_details.",
  parameters: z.object({
    query: z.string().trim().min(1).describe('Title or words of it, e.g. "blade runner"'),
    year: z.string().trim().default("").describe('Release year, e.g. "1982"; empty for any'),
    type: z.enum(["", "movie", "series", "episode"]).default("").describe("Only this kind; empty for all"),
  }),
  effect: "read",
  timeoutMs: 40_000,
  handler: async ({ query, year, type }, context) => {
    const what = `'${query}'${year ? ` (${year})` : ""}`;
    if (!hasOmdbKey(context)) {
      const words = [query, year, type === "series" ? "TV series" : ""].filter(Boolean).join(" ");
      return webList(await searchImdbPages(context, words, WEB_RESULTS), what);
    }
    const found = await searchOmdb(context, { query, year, type });
    if ("refused" in found) {
      if (/too many/i.test(found.refused)) return `Too many titles match ${what} on OMDb: add words or a year.`;
      return `OMDb has no title matching ${what}. Check the spelling, or try fewer words.`;
    }
    const more = found.total > found.titles.length ? ` (first ${found.titles.length} of ${found.total})` : "";
    return `OMDb titles for ${what}${more}:\n${found.titles.map(listedLine).join("\n")}`;
  },
});

const getMovieDetails = defineTool({
  name: "get_movie_details",
  description:
    "Details of a film or series: ratings (IMDb, Rotten Tomatoes, Metacritic), plot, director, cast, runtime, " +
    "awards. Give imdb_id (from search_movies, e.g. tt0083658) or the exact title.",
  parameters: z.object({
    title: z.string().trim().default("").describe("Exact title, when no IMDb id is known"),
    imdb_id: z
      .preprocess(idOfAddress, z.string().trim().regex(IMDB_ID, 'An IMDb id looks like "tt0083658".').default(""))
      .describe('IMDb id such as "tt0083658"; wins over title'),
  }),
  effect: "read",
  timeoutMs: 40_000,
  handler: async ({ title, imdb_id: imdbId }, context) => {
    if (!title && !imdbId) throw new ToolError("Give imdb_id (from search_movies) or title.");
    const what = imdbId ? `IMDb id ${imdbId}` : `'${title}'`;
    if (!hasOmdbKey(context)) {
      const [best] = await searchImdbPages(context, imdbId || title, 1);
      return best ? `${describeFound(best)}\n${WITHOUT_KEY}` : webList([], what);
    }
    const movie = await omdbDetails(context, { title, imdbId });
    if ("refused" in movie) return `OMDb has no title with ${what}. Find the IMDb id with search_movies.`;
    return formatDetails(movie);
  },
});

export const movieTools = [searchMovies, getMovieDetails];
