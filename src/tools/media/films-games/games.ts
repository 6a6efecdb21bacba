import { z } from "zod";
import { truncateText } from "../../../shared/truncate.js";
import { defineTool, type ToolContext, ToolError } from "../../kit/define-tool.js";
import { htmlToText } from "../../kit/html/index.js";
import { resultLimit } from "../../kit/lenient-parameters.js";
import { type GameDetails, type ListedGame, RAWG_KEY_HELP, rawgDetails, searchRawg } from "./rawg.js";
import { describeFound, listFound, searchGamePages } from "./web-fallback.js";

const DESCRIPTION_CHARS = 1500;

const hasRawgKey = (context: ToolContext) => Boolean(context.env.RAWG_API_KEY?.trim());

const WITHOUT_KEY =
  "RAWG_API_KEY is not set, so this comes from a web search of Wikipedia: titles, years and links only. " +
  `With RAWG_API_KEY (${RAWG_KEY_HELP}) you get ratings, platforms, genres and RAWG ids for get_game_details.`;

function released(game: ListedGame): string {
  if (game.tba) return "to be announced";
  return game.released ?? "release date unknown";
}

function scores(game: ListedGame): string[] {
  const parts: string[] = [];
  if (game.rating && game.ratings_count > 0) {
    const count = game.ratings_count.toLocaleString("en-US");
    parts.push(`rating ${game.rating}/${game.rating_top ?? 5} (${count} ratings)`);
  }
  if (game.metacritic !== null) parts.push(`Metacritic ${game.metacritic}`);
  return parts;
}

function listedLine(game: ListedGame, index: number): string {
  const facts = [`id ${game.id}`, released(game), ...scores(game)];
  const lines = [`${index + 1}. ${game.name} — ${facts.join(", ")}`];
  if (game.platforms.length > 0) lines.push(`   Platforms: ${game.platforms.join(", ")}`);
  if (game.genres.length > 0) lines.push(`   Genres: ${game.genres.join(", ")}`);
  return lines.join("\n");
}

async function formatDetails(game: GameDetails): Promise<string> {
  const fields: Array<[string, string | undefined]> = [
    ["Released", released(game)],
    ["Scores", scores(game).join(", ") || undefined],
    ["Platforms", game.platforms.join(", ") || undefined],
    ["Genres", game.genres.join(", ") || undefined],
    ["Developers", game.developers.join(", ") || undefined],
    ["Publishers", game.publishers.join(", ") || undefined],
    ["Age rating (ESRB)", game.esrb_rating?.name],
    ["Average playtime", game.playtime ? `${game.playtime} hours` : undefined],
    ["Website", game.website || undefined],
  ];
  const lines = [`${game.name} — https://rawg.io/games/${game.slug}`];
  for (const [label, value] of fields) if (value) lines.push(`${label}: ${value}`);
  const description = game.description ? await htmlToText(game.description) : "";
  if (description) lines.push("", truncateText(description, DESCRIPTION_CHARS));
  return lines.join("\n");
}

const searchGames = defineTool({
  name: "search_games",
  description:
    "Search video games (RAWG with RAWG_API_KEY, else a web search of Wikipedia): name, release date, rating, " +
    "platforms, genres and the RAWG id for get_game_details. Steam prices and player counts: steam_* tools.",
  parameters: z.object({
    query: z.string().trim().min(1).describe('Game name or words of it, e.g. "portal 2"'),
    max_results: resultLimit(40, 5),
  }),
  effect: "read",
  timeoutMs: 40_000,
  handler: async ({ query, max_results: limit }, context) => {
    if (!hasRawgKey(context)) {
      const found = await searchGamePages(context, query, limit);
      if (found.length === 0) return `A web search found no game matching '${query}'.\n${WITHOUT_KEY}`;
      return `Games matching '${query}' on Wikipedia:\n${listFound(found)}\n${WITHOUT_KEY}`;
    }
    const { count, results } = await searchRawg(context, query, limit);
    if (results.length === 0) return `RAWG has no game matching '${query}'. Check the spelling, or try fewer words.`;
    const more = count > results.length ? ` (first ${results.length} of ${count.toLocaleString("en-US")})` : "";
    return `RAWG games for '${query}'${more}:\n${results.map(listedLine).join("\n")}`;
  },
});

/** The RAWG id to read: the one given, else RAWG's best match for the name. */
async function rawgIdOf(context: ToolContext, id: number | undefined, name: string): Promise<number | undefined> {
  if (id !== undefined) return id;
  const { results } = await searchRawg(context, name, 1);
  return results[0]?.id;
}

/** Without a RAWG key: the best Wikipedia article for the name, from a web search. */
async function detailsFromTheWeb(context: ToolContext, name: string): Promise<string> {
  if (!name) {
    throw new ToolError(
      `without RAWG_API_KEY (${RAWG_KEY_HELP}) a RAWG id cannot be looked up: give the game's name, and a web ` +
        "search finds it.",
    );
  }
  const [best] = await searchGamePages(context, name, 1);
  if (!best) return `A web search found no game matching '${name}'.\n${WITHOUT_KEY}`;
  return `From a web search for '${name}' (not RAWG):\n${describeFound(best)}\n${WITHOUT_KEY}`;
}

const getGameDetails = defineTool({
  name: "get_game_details",
  description:
    "Details of a video game: description, release date, rating and Metacritic score, platforms, genres, " +
    "developers, publishers, age rating (RAWG with RAWG_API_KEY, else a web search of Wikipedia by name). Give " +
    "game_id (from search_games) or the game's name.",
  parameters: z.object({
    game_id: z.number().int().positive().optional().describe("RAWG id, from search_games; wins over name"),
    name: z.string().trim().default("").describe('The game\'s name, e.g. "Portal 2", when no RAWG id is known'),
  }),
  effect: "read",
  timeoutMs: 40_000,
  handler: async ({ game_id: givenId, name }, context) => {
    if (givenId === undefined && !name) throw new ToolError("Give game_id (from search_games) or name.");
    if (!hasRawgKey(context)) return detailsFromTheWeb(context, name);
    const id = await rawgIdOf(context, givenId, name);
    const game = id === undefined ? undefined : await rawgDetails(context, id);
    if (!game) {
      const what = givenId === undefined ? `matching '${name}'` : `with id ${givenId}`;
      return `RAWG has no game ${what}. Find the id with search_games.`;
    }
    return formatDetails(game);
  },
});

export const gameTools = [searchGames, getGameDetails];
