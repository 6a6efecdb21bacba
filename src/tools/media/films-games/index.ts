import { gameTools } from "./games.js";
import { movieTools } from "./movies.js";

/** Films and series (OMDb) and video games (RAWG), each with a web-search fallback when no key is set. */
export const mediaTools = [...movieTools, ...gameTools];
