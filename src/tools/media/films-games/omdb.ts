import { z } from "zod";
import type { ToolContext } from "../../kit/define-tool.js";
import {
  type ExternalService,
  http,
  type QueryParams,
  ServiceError,
  type StatusAdvice,
  withStatusAdvice,
} from "../../kit/http/index.js";

/** The Open Movie Database: films, series and episodes, by title or IMDb id; needs OMDB_API_KEY. */
const OMDB: ExternalService = {
  name: "OMDb",
  envVar: "MARVIN_OMDB_URL",
  defaultUrl: "https://www.omdbapi.com",
};

export const OMDB_KEY_HELP = "a free key from https://www.omdbapi.com/apikey.aspx";

/** OMDb answers HTTP 200 with `"Response": "False"` and a message when it finds nothing. */
const refusal = z.object({ Response: z.literal("False"), Error: z.string() });

const listedTitle = z.object({
  Title: z.string(),
  Year: z.string(),
  imdbID: z.string(),
  Type: z.string(),
});

const searchAnswer = z.discriminatedUnion("Response", [
  z.object({ Response: z.literal("True"), Search: z.array(listedTitle), totalResults: z.string() }),
  refusal,
]);

/** Every field is a string, "N/A" where OMDb has nothing. */
const text = z.string().optional();

const titleDetails = z.object({
  Response: z.literal("True"),
  Title: z.string(),
  Year: text,
  Rated: text,
  Released: text,
  Runtime: text,
  Genre: text,
  Director: text,
  Writer: text,
  Actors: text,
  Plot: text,
  Language: text,
  Country: text,
  Awards: text,
  Ratings: z.array(z.object({ Source: z.string(), Value: z.string() })).default([]),
  Metascore: text,
  imdbRating: text,
  imdbVotes: text,
  imdbID: z.string(),
  Type: text,
  totalSeasons: text,
  BoxOffice: text,
});

const detailsAnswer = z.discriminatedUnion("Response", [titleDetails, refusal]);

export type ListedTitle = z.output<typeof listedTitle>;
export type TitleDetails = z.output<typeof titleDetails>;

/** What OMDb said instead of results: nothing matched, or the search was too broad. */
interface OmdbRefusal {
  refused: string;
}

/** OMDb's messages for "nothing matched" ("Movie not found!", "Series not found!", "Incorrect IMDb ID."). */
const NOTHING_FOUND = /not found|incorrect imdb id/i;

function readRefusal(message: string): OmdbRefusal {
  if (NOTHING_FOUND.test(message) || /too many results/i.test(message)) return { refused: message };
  const problem = `OMDb answered with an error: "${message}" — try again in a minute, or ask differently.`;
  throw new ServiceError(problem, { service: OMDB.name, kind: "bad-answer" });
}

/** OMDb answers 401 both for a bad key and for a key whose daily requests are used up. */
const OMDB_ADVICE: StatusAdvice = {
  401:
    "it refused OMDB_API_KEY: the key is wrong or not yet activated (OMDb emails an activation link), or its 1,000 " +
    "requests of the day are used up. Check the key, or unset it to search the web instead.",
};

async function askOmdb<Schema extends z.ZodType>(context: ToolContext, query: QueryParams, schema: Schema) {
  const apikey = context.env.OMDB_API_KEY?.trim();
  return withStatusAdvice(OMDB_ADVICE, () => http(context).getJson(OMDB, "/", { ...query, apikey }, schema));
}

interface MovieQuery {
  query: string;
  year: string;
  type: string;
}

/** Titles matching `query` (OMDb's first page: up to 10), or OMDb's reason for giving none. */
export async function searchOmdb(
  context: ToolContext,
  { query, year, type }: MovieQuery,
): Promise<{ titles: ListedTitle[]; total: number } | OmdbRefusal> {
  const answer = await askOmdb(context, { s: query, y: year || undefined, type: type || undefined }, searchAnswer);
  if (answer.Response === "False") return readRefusal(answer.Error);
  return { titles: answer.Search, total: Number(answer.totalResults) || answer.Search.length };
}

/** One title by IMDb id (preferred) or by its exact title, with the full plot. */
export async function omdbDetails(
  context: ToolContext,
  { title, imdbId }: { title: string; imdbId: string },
): Promise<TitleDetails | OmdbRefusal> {
  const which = imdbId ? { i: imdbId } : { t: title };
  const answer = await askOmdb(context, { ...which, plot: "full" }, detailsAnswer);
  return answer.Response === "False" ? readRefusal(answer.Error) : answer;
}
