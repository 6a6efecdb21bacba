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

/** RAWG's video game database; needs RAWG_API_KEY. */
const RAWG: ExternalService = {
  name: "RAWG",
  envVar: "MARVIN_RAWG_URL",
  defaultUrl: "https://api.rawg.io",
};

export const RAWG_KEY_HELP = "a free key from https://rawg.io/apidocs";

const named = z.object({ name: z.string() });
/** RAWG nests platforms and stores one level deeper: `[{ platform: { name } }]`; lists may be null. */
const platforms = z
  .array(z.object({ platform: named }))
  .nullish()
  .transform((list) => (list ?? []).map((entry) => entry.platform.name));
const names = z
  .array(named)
  .nullish()
  .transform((list) => (list ?? []).map((entry) => entry.name));

const listedGame = z.object({
  id: z.number(),
  slug: z.string(),
  name: z.string(),
  released: z.string().nullable(),
  tba: z.boolean().default(false),
  rating: z.number().nullable().default(null),
  rating_top: z.number().nullable().default(null),
  ratings_count: z.number().default(0),
  metacritic: z.number().nullable().default(null),
  /** Average hours played, as RAWG's users report it. */
  playtime: z.number().nullable().default(null),
  platforms,
  genres: names,
});

const searchAnswer = z.object({ count: z.number(), results: z.array(listedGame) });

const gameDetails = listedGame.extend({
  /** HTML paragraphs. */
  description: z.string().nullable().default(null),
  website: z.string().nullable().default(null),
  developers: names,
  publishers: names,
  esrb_rating: named.nullable().default(null),
});

export type ListedGame = z.output<typeof listedGame>;
export type GameDetails = z.output<typeof gameDetails>;

const REFUSED_KEY =
  "it refused RAWG_API_KEY: the key is wrong, or its monthly requests are used up. Check the key at " +
  "https://rawg.io/apidocs, or unset it to search the web instead.";
const RAWG_ADVICE: StatusAdvice = { 401: REFUSED_KEY, 403: REFUSED_KEY };

async function askRawg<Schema extends z.ZodType>(
  context: ToolContext,
  path: string,
  query: QueryParams,
  schema: Schema,
): Promise<z.output<Schema>> {
  const key = context.env.RAWG_API_KEY?.trim();
  return withStatusAdvice(RAWG_ADVICE, () => http(context).getJson(RAWG, path, { key, ...query }, schema));
}

/** Games matching `query`, best match first. */
export async function searchRawg(context: ToolContext, query: string, limit: number) {
  return askRawg(context, "/api/games", { search: query, page_size: limit }, searchAnswer);
}

/** One game by its RAWG id; undefined when RAWG has none. */
export async function rawgDetails(context: ToolContext, id: number): Promise<GameDetails | undefined> {
  try {
    return await askRawg(context, `/api/games/${id}`, {}, gameDetails);
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) return undefined;
    throw error;
  }
}
