import { steamStoreTools } from "./store-tools.js";
import { steamUserTools } from "./user-tools.js";

/** The Steam store and Web API: search, store pages, deals, player counts without a key; users with STEAM_API_KEY. */
export const steamTools = [...steamStoreTools, ...steamUserTools];
