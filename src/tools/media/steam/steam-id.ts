import { type ToolContext, ToolError } from "../../kit/define-tool.js";
import { resolveVanityName } from "./web-api.js";

/** A SteamID64: 17 digits, starting 7656119. */
const STEAM_ID64 = /^7656119\d{10}$/;
/** steamcommunity.com/profiles/<SteamID64> or steamcommunity.com/id/<custom name>. */
const PROFILE_URL = /^(?:https?:\/\/)?(?:www\.)?steamcommunity\.com\/(profiles|id)\/([^/?#\s]+)\/?/i;
/** Custom profile names are 2 to 32 letters, digits, "_" or "-". */
const VANITY_NAME = /^[A-Za-z0-9_-]{2,32}$/;

/**
 * The SteamID64 of a profile given as that id, a profile URL, or the custom name of its URL
 * (steamcommunity.com/id/<name>), which Steam resolves.
 */
export async function resolveSteamId(context: ToolContext, key: string, given: string): Promise<string> {
  const text = given.trim();
  const url = PROFILE_URL.exec(text);
  const candidate = url ? decodeURIComponent(url[2]!) : text;
  if (STEAM_ID64.test(candidate)) return candidate;
  if (url?.[1]?.toLowerCase() === "profiles" || !VANITY_NAME.test(candidate)) {
    throw new ToolError(
      `'${given}' is not a Steam profile: give a SteamID64 (17 digits, e.g. 76561197960287930), a profile URL, ` +
        "or the custom name in steamcommunity.com/id/<name>.",
    );
  }
  const resolved = await resolveVanityName(context, key, candidate);
  if (!resolved) {
    throw new ToolError(
      `No Steam profile has the custom URL name '${candidate}'. Check the spelling, or give the SteamID64 ` +
        "(17 digits) from the profile's URL.",
    );
  }
  return resolved;
}
