import { academicTools } from "./academic/index.js";
import { bookmarkTools } from "./bookmarks/index.js";
import { codingTools } from "./coding/index.js";
import type { AnyToolDef } from "./define-tool.js";
import { downloadTools } from "./downloads/index.js";
import { feedTools } from "./feeds/index.js";
import { fileTools } from "./files/index.js";
import { gitTools } from "./git/index.js";
import { githubTools } from "./github/index.js";
import { historyTools } from "./history/index.js";
import { languageTools } from "./language/index.js";
import { locationTools } from "./location/index.js";
import { mapTools } from "./maps/index.js";
import { mediaTools } from "./media/index.js";
import { musicTools } from "./music/index.js";
import { notesFileTools } from "./notes/file-tools.js";
import { noteTools } from "./notes/index.js";
import { organiserTools } from "./organiser/index.js";
import { placeTools } from "./places/index.js";
import { profileTools } from "./profiles/index.js";
import { recipeTools } from "./recipes/index.js";
import { shellTools } from "./shell/index.js";
import { spotifyTools } from "./spotify/index.js";
import { stackTools } from "./stack/index.js";
import { steamTools } from "./steam/index.js";
import { systemTools } from "./system/index.js";
import { ticketTools } from "./tickets/index.js";
import { timerTools } from "./timers/index.js";
import { travelTools } from "./travel/index.js";
import { unitTools } from "./units/index.js";
import { weatherTools } from "./weather/index.js";
import { webTools } from "./web/index.js";
import { wikiTools } from "./wiki/index.js";

/** A group of tools offered together once the model asks for it with load_tools. */
interface ToolFamily {
  name: string;
  /** What the family is for, in a few words (load_tools lists it with the family's tool names). */
  summary: string;
  tools: readonly AnyToolDef[];
}

/** Every built-in tool, by family, in the order they are offered (seed 000 Appendix B). */
export const TOOL_FAMILIES: readonly ToolFamily[] = [
  {
    name: "personal",
    summary: "the app, usage and system info, profiles and preferences, chat-history backups",
    tools: [...systemTools, ...profileTools, ...historyTools],
  },
  {
    name: "places",
    summary: "where the user is, places and what is nearby, saved places, weather, maps, travel, units",
    tools: [...locationTools, ...placeTools, ...weatherTools, ...mapTools, ...travelTools, ...unitTools],
  },
  {
    name: "media",
    summary: "music and Spotify playlists, recipes, films and series, video games and Steam",
    tools: [...musicTools, ...recipeTools, ...spotifyTools, ...mediaTools, ...steamTools],
  },
  { name: "web", summary: "web search, news, reading web pages, downloads", tools: [...webTools, ...downloadTools] },
  {
    name: "organiser",
    summary: "timers, calendar, alarms and reminders, ntfy push notifications, notes",
    tools: [...timerTools, ...organiserTools, ...noteTools, ...notesFileTools],
  },
  { name: "tickets", summary: "the project's tickets (tk)", tools: ticketTools },
  {
    name: "coding",
    summary: "files, code search, the working directory, reviews, git, shell commands",
    tools: [...fileTools, ...codingTools, ...gitTools, ...shellTools],
  },
  {
    name: "knowledge",
    summary: "bookmarks, GitHub, Wikipedia, research papers, Stack Exchange, dictionary and translation, RSS",
    tools: [
      ...bookmarkTools,
      ...githubTools,
      ...wikiTools,
      ...academicTools,
      ...stackTools,
      ...languageTools,
      ...feedTools,
    ],
  },
];

/**
 * The tools offered from the first request on, before any load_tools call: in chat mode a handful of the most
 * used everyday tools, in coding mode the coding family and those.
 */
export const CORE_TOOLS = {
  chat: [
    "web_search",
    "browse_web",
    "weather_forecast",
    "get_my_location",
    "timer_start",
    "convert_units",
    "update_preferences",
    "exit_app",
  ],
  coding: [
    "web_search",
    "browse_web",
    "exit_app",
    ...TOOL_FAMILIES.find((family) => family.name === "coding")!.tools.map((tool) => tool.name),
  ],
} as const;
