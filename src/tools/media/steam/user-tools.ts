import { z } from "zod";
import { defineTool } from "../../kit/define-tool.js";
import { dateOf, hours } from "./format.js";
import { resolveSteamId } from "./steam-id.js";
import { type OwnedGame, ownedGames, type PlayerSummary, playerSummaryOf, requireKey } from "./web-api.js";

const GAMES_SHOWN = 25;

const steamId = z
  .string()
  .trim()
  .min(1)
  .describe("SteamID64 (17 digits), profile URL, or the custom name in steamcommunity.com/id/<name>");

function gameLine(game: OwnedGame, index: number): string {
  const facts = [`app ${game.appid}`, hours(game.playtime_forever)];
  if (game.playtime_2weeks) facts.push(`${hours(game.playtime_2weeks)} in the last two weeks`);
  if (game.rtime_last_played) facts.push(`last played ${dateOf(game.rtime_last_played)}`);
  return `${index + 1}. ${game.name ?? `App ${game.appid}`} — ${facts.join(", ")}`;
}

function formatOwnedGames(id: string, games: OwnedGame[]): string {
  if (games.length === 0) return `Steam profile ${id} owns no games.`;
  const byPlaytime = [...games].sort((first, second) => second.playtime_forever - first.playtime_forever);
  const total = games.reduce((sum, game) => sum + game.playtime_forever, 0);
  const unplayed = games.filter((game) => game.playtime_forever === 0).length;
  const shown = byPlaytime.slice(0, GAMES_SHOWN);
  const heading =
    `Steam profile ${id} owns ${games.length} games, ${hours(total)} played in all; ${unplayed} never played.` +
    (games.length > shown.length ? `\nThe ${shown.length} most played:` : "\nBy playtime:");
  return `${heading}\n${shown.map(gameLine).join("\n")}`;
}

const steamUserGames = defineTool({
  name: "steam_user_games",
  description:
    "A Steam user's games with playtime in hours, most played first, and when each was last played. " +
    "Needs STEAM_API_KEY and a profile whose game details are public.",
  parameters: z.object({ steam_id: steamId }),
  effect: "read",
  timeoutMs: 40_000,
  handler: async ({ steam_id: given }, context) => {
    const key = requireKey(context, "steam_user_games");
    const id = await resolveSteamId(context, key, given);
    const games = await ownedGames(context, key, id);
    if (!games) {
      return (
        `Steam shows no games for profile ${id}: its game details are private (or it has none). The owner ` +
        "can make them public under Edit Profile → Privacy Settings."
      );
    }
    return formatOwnedGames(id, games);
  },
});

const PERSONA_STATES = ["offline", "online", "busy", "away", "snooze", "looking to trade", "looking to play"];

function formatSummary(player: PlayerSummary): string {
  const isPublic = player.communityvisibilitystate === 3;
  const fields: Array<[string, string | undefined]> = [
    ["Steam id", player.steamid],
    ["Profile", player.profileurl],
    ["Visibility", isPublic ? "public" : "private (only the name and status are visible)"],
    ["Status", PERSONA_STATES[player.personastate] ?? `state ${player.personastate}`],
    ["Playing now", player.gameextrainfo && `${player.gameextrainfo}${player.gameid ? ` (app ${player.gameid})` : ""}`],
    ["Real name", player.realname || undefined],
    ["Country", player.loccountrycode],
    ["Member since", player.timecreated ? dateOf(player.timecreated) : undefined],
    ["Last online", player.lastlogoff ? dateOf(player.lastlogoff) : undefined],
  ];
  const lines = [player.personaname];
  for (const [label, value] of fields) if (value) lines.push(`${label}: ${value}`);
  return lines.join("\n");
}

const steamUserSummary = defineTool({
  name: "steam_user_summary",
  description:
    "A Steam user's profile: name, status, the game being played now, country, member since, last online. " +
    "Needs STEAM_API_KEY.",
  parameters: z.object({ steam_id: steamId }),
  effect: "read",
  timeoutMs: 40_000,
  handler: async ({ steam_id: given }, context) => {
    const key = requireKey(context, "steam_user_summary");
    const id = await resolveSteamId(context, key, given);
    const player = await playerSummaryOf(context, key, id);
    if (!player) return `Steam has no profile with id ${id}.`;
    return formatSummary(player);
  },
});

export const steamUserTools = [steamUserGames, steamUserSummary];
