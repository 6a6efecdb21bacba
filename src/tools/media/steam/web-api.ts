import { z } from "zod";
import { type ToolContext, ToolError } from "../../kit/define-tool.js";
import {
  type ExternalService,
  http,
  type QueryParams,
  ServiceError,
  type StatusAdvice,
  withStatusAdvice,
} from "../../kit/http/index.js";

/** Steam's Web API: player counts and achievement statistics without a key, user data with STEAM_API_KEY. */
const STEAM_API: ExternalService = {
  name: "Steam Web API",
  envVar: "MARVIN_STEAM_API_URL",
  defaultUrl: "https://api.steampowered.com",
};

const KEY_HELP = "a free key from https://steamcommunity.com/dev/apikey";

/** `result` is 1 when Steam knows the app; other codes (42: no match) come without a count. */
const currentPlayersAnswer = z.object({
  response: z.object({ result: z.number(), player_count: z.number().optional() }),
});

/** Players in the app right now; undefined when Steam does not know the app. */
export async function currentPlayers(context: ToolContext, appId: number): Promise<number | undefined> {
  const path = "/ISteamUserStats/GetNumberOfCurrentPlayers/v1/";
  try {
    const { response } = await http(context).getJson(STEAM_API, path, { appid: appId }, currentPlayersAnswer);
    return response.result === 1 ? response.player_count : undefined;
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) return undefined;
    throw error;
  }
}

/** The share of players who unlocked an achievement: a number, or (lately) a string such as "71.599998". */
const percent = z.union([
  z.number(),
  z
    .string()
    .regex(/^\d+(\.\d+)?$/)
    .transform(Number),
]);

const achievementsAnswer = z.object({
  achievementpercentages: z.object({
    achievements: z.array(z.object({ name: z.string(), percent })).default([]),
  }),
});

export type AchievementShare = { name: string; percent: number };

/** Every achievement's global unlock share; empty when the app has none (Steam may answer 403 or 404 then). */
export async function achievementShares(context: ToolContext, appId: number): Promise<AchievementShare[]> {
  const path = "/ISteamUserStats/GetGlobalAchievementPercentagesForApp/v2/";
  try {
    const answer = await http(context).getJson(STEAM_API, path, { gameid: appId }, achievementsAnswer);
    return answer.achievementpercentages.achievements;
  } catch (error) {
    if (error instanceof ServiceError && (error.status === 403 || error.status === 404)) return [];
    throw error;
  }
}

/** The key, or a message saying which tool needs it and what works without it. */
export function requireKey(context: ToolContext, tool: string): string {
  const key = context.env.STEAM_API_KEY?.trim();
  if (key) return key;
  throw new ToolError(
    `${tool} needs STEAM_API_KEY (${KEY_HELP}); set it and restart Marvin. Without a key, steam_search, ` +
      "steam_app_details, steam_featured and steam_player_stats still work.",
  );
}

const REFUSED_KEY = `it refused STEAM_API_KEY. Check the key (${KEY_HELP}).`;
const KEY_ADVICE: StatusAdvice = { 401: REFUSED_KEY, 403: REFUSED_KEY };

/** A keyed call; Steam answers 401 or 403 (with an HTML page) when it does not accept the key. */
async function askWithKey<Schema extends z.ZodType>(
  context: ToolContext,
  key: string,
  path: string,
  query: QueryParams,
  schema: Schema,
): Promise<z.output<Schema>> {
  return withStatusAdvice(KEY_ADVICE, () => http(context).getJson(STEAM_API, path, { key, ...query }, schema));
}

/** `success` 1 with the id; 42 with "No match" when no profile has that custom URL name. */
const vanityAnswer = z.object({
  response: z.object({ success: z.number(), steamid: z.string().optional(), message: z.string().optional() }),
});

/** The 64-bit id behind a profile's custom URL name ("gabelogannewell"); undefined when there is none. */
export async function resolveVanityName(context: ToolContext, key: string, name: string) {
  const path = "/ISteamUser/ResolveVanityURL/v1/";
  const { response } = await askWithKey(context, key, path, { vanityurl: name }, vanityAnswer);
  return response.success === 1 ? response.steamid : undefined;
}

const ownedGame = z.object({
  appid: z.number(),
  name: z.string().optional(),
  /** Minutes. */
  playtime_forever: z.number().default(0),
  /** Minutes in the last two weeks; absent when none. */
  playtime_2weeks: z.number().optional(),
  /** Unix seconds; 0 for never. */
  rtime_last_played: z.number().optional(),
});

/** An empty `response` when the profile's game details are private. */
const ownedGamesAnswer = z.object({
  response: z.object({ game_count: z.number().optional(), games: z.array(ownedGame).optional() }),
});

export type OwnedGame = z.output<typeof ownedGame>;

/** The games a profile owns, with names and playtime; undefined when its game details are private. */
export async function ownedGames(context: ToolContext, key: string, steamId: string) {
  const path = "/IPlayerService/GetOwnedGames/v1/";
  const query = { steamid: steamId, include_appinfo: 1, include_played_free_games: 1, format: "json" };
  const { response } = await askWithKey(context, key, path, query, ownedGamesAnswer);
  return response.games;
}

const playerSummary = z.object({
  steamid: z.string(),
  personaname: z.string(),
  profileurl: z.string(),
  /** 1: private (only these first fields are given), 3: public. */
  communityvisibilitystate: z.number(),
  /** 0 offline, 1 online, 2 busy, 3 away, 4 snooze, 5 looking to trade, 6 looking to play. */
  personastate: z.number().default(0),
  realname: z.string().optional(),
  /** Unix seconds. */
  timecreated: z.number().optional(),
  lastlogoff: z.number().optional(),
  loccountrycode: z.string().optional(),
  /** The game being played now. */
  gameextrainfo: z.string().optional(),
  gameid: z.string().optional(),
});

const summariesAnswer = z.object({ response: z.object({ players: z.array(playerSummary) }) });

export type PlayerSummary = z.output<typeof playerSummary>;

/** A profile's public summary; undefined when no profile has that id. */
export async function playerSummaryOf(context: ToolContext, key: string, steamId: string) {
  const path = "/ISteamUser/GetPlayerSummaries/v2/";
  const { response } = await askWithKey(context, key, path, { steamids: steamId }, summariesAnswer);
  return response.players[0];
}
