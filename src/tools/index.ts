import { academicTools } from "./academic/index.js";
import { bookmarkTools } from "./bookmarks/index.js";
import { codingTools } from "./coding/index.js";
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
import { ToolRegistry } from "./registry.js";
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

/** Every tool domain, registered in one place (seed 000 §4.1). */
export function createToolRegistry(): ToolRegistry {
  const registry = new ToolRegistry();
  for (const tool of [
    ...systemTools,
    ...locationTools,
    ...placeTools,
    ...weatherTools,
    ...mapTools,
    ...travelTools,
    ...unitTools,
    ...musicTools,
    ...recipeTools,
    ...spotifyTools,
    ...webTools,
    ...downloadTools,
    ...mediaTools,
    ...steamTools,
    ...profileTools,
    ...historyTools,
    ...timerTools,
    ...organiserTools,
    ...ticketTools,
    ...noteTools,
    ...notesFileTools,
    ...fileTools,
    ...codingTools,
    ...gitTools,
    ...shellTools,
    ...bookmarkTools,
    ...githubTools,
    ...wikiTools,
    ...academicTools,
    ...stackTools,
    ...languageTools,
    ...feedTools,
  ]) {
    registry.register(tool);
  }
  return registry;
}
