import { z } from "zod";
import { truncateText } from "../../shared/truncate.js";
import { defineTool, type ToolContext, ToolError } from "../define-tool.js";
import { htmlToText } from "../html/index.js";
import { type GameDetails, type ListedGame, RAWG_KEY_HELP, rawgDetails, searchRawg } from "./rawg.js";
import { listFound, searchGamePages } from "./web-fallback.js";

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
    max_results: z.number().int().min(1).max(40).default(5),
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

const getGameDetails = defineTool({
  name: "get_game_details",
  description:
    "Details of a video game by its RAWG id (from search_games): description, release date, rating and " +
    "Metacritic score, platforms, genres, developers, publishers, age rating. Needs RAWG_API_KEY.",
  parameters: z.object({
    game_id: z.number().int().positive().describe("RAWG id, from search_games"),
  }),
  effect: "read",
  timeoutMs: 40_000,
  handler: async ({ game_id: id }, context) => {
    if (!hasRawgKey(context)) {
      throw new ToolError(
        `get_game_details needs RAWG_API_KEY (${RAWG_KEY_HELP}); set it and restart Marvin. Without it, ` +
          "search_games finds titles, years and Wikipedia links, and steam_search and steam_app_details give " +
          "store details of games on Steam.",
      );
    }
    const game = await rawgDetails(context, id);
    if (!game) return `RAWG has no game with id ${id}. Find the id with search_games.`;
    return formatDetails(game);
  },
});

export const gameTools = [searchGames, getGameDetails];
