/**
 * Answers in the shape of the Steam store (store.steampowered.com/api: storesearch, appdetails keyed by app id
 * with prices in hundredths and HTML texts, featuredcategories with numbered spotlight entries) and the Steam
 * Web API (api.steampowered.com: `response` wrappers, result codes, percentages as strings, an HTML 403 page
 * for a refused key).
 */

const capsule = (id: number) =>
  `https://shared.akamai.steamstatic.com/store_item_assets/steam/apps/${id}/capsule_231x87.jpg?t=1745368462`;

/** `currency` as the store's `cc` decides; free games come without `price`. */
export function steamSearchPortal(currency = "USD") {
  return {
    total: 3,
    items: [
      {
        type: "app",
        name: "Portal 2",
        id: 620,
        price: { currency, initial: 999, final: 999 },
        tiny_image: capsule(620),
        metascore: "95",
        platforms: { windows: true, mac: true, linux: true },
        streamingvideo: false,
        controller_support: "full",
      },
      {
        type: "app",
        name: "Portal",
        id: 400,
        price: { currency, initial: 999, final: 199 },
        tiny_image: capsule(400),
        metascore: "90",
        platforms: { windows: true, mac: true, linux: true },
        streamingvideo: false,
      },
      {
        type: "app",
        name: "Portal Reloaded",
        id: 1255980,
        tiny_image: capsule(1255980),
        metascore: "",
        platforms: { windows: true, mac: false, linux: false },
        streamingvideo: false,
      },
    ],
  };
}

export const STEAM_SEARCH_NOTHING = { total: 0, items: [] };

export const STEAM_APP_PORTAL_2 = {
  "620": {
    success: true,
    data: {
      type: "game",
      name: "Portal 2",
      steam_appid: 620,
      required_age: 0,
      is_free: false,
      dlc: [323180],
      detailed_description:
        '<h2 class="bb_tag">Single Player</h2>Portal 2 draws from the award-winning formula of innovative gameplay.',
      about_the_game:
        '<h2 class="bb_tag">Single Player</h2><p class="bb_paragraph">The single-player portion of Portal 2 ' +
        "introduces a cast of dynamic new characters &amp; a host of fresh puzzle elements.</p>" +
        '<img src="https://shared.akamai.steamstatic.com/store_item_assets/steam/apps/620/extras/sp.png"><br>' +
        '<h2 class="bb_tag">Cooperative Gaming</h2><p class="bb_paragraph">Portal 2 features a cooperative ' +
        "mode where two players take on the role of robotic partners Atlas &amp; P-Body.</p>",
      short_description:
        "The &quot;Perpetual Testing Initiative&quot; has been expanded to allow you to design co-op puzzles " +
        "for you and your friends!",
      supported_languages:
        "English<strong>*</strong>, French<strong>*</strong>, German<strong>*</strong>, Spanish - Spain" +
        "<strong>*</strong>, Japanese<br><strong>*</strong>languages with full audio support",
      header_image: "https://shared.akamai.steamstatic.com/store_item_assets/steam/apps/620/header.jpg?t=1745363004",
      website: "http://www.thinkwithportals.com/",
      pc_requirements: { minimum: '<strong>Minimum:</strong><br><ul class="bb_ul"><li>OS: Windows 7</li></ul>' },
      mac_requirements: [],
      linux_requirements: [],
      developers: ["Valve"],
      publishers: ["Valve"],
      price_overview: {
        currency: "USD",
        initial: 999,
        final: 999,
        discount_percent: 0,
        initial_formatted: "",
        final_formatted: "$9.99",
      },
      packages: [7877],
      platforms: { windows: true, mac: true, linux: true },
      metacritic: { score: 95, url: "https://www.metacritic.com/game/pc/portal-2?ftag=MCD-06-10aaa1f" },
      categories: [
        { id: 2, description: "Single-player" },
        { id: 9, description: "Co-op" },
        { id: 22, description: "Steam Achievements" },
      ],
      genres: [
        { id: "1", description: "Action" },
        { id: "25", description: "Adventure" },
      ],
      recommendations: { total: 433512 },
      achievements: { total: 51, highlighted: [{ name: "Wake Up Call", path: "https://cdn.example/a.jpg" }] },
      release_date: { coming_soon: false, date: "18 Apr, 2011" },
      support_info: { url: "http://steamcommunity.com/app/620", email: "" },
      background: "https://store.akamai.steamstatic.com/images/storepagebackground/app/620?t=1745363004",
      content_descriptors: { ids: [], notes: null },
      ratings: null,
    },
  },
};

/** Not released yet: no price, the date as the store shows it, the age as a string. */
export const STEAM_APP_COMING_SOON = {
  "2868840": {
    success: true,
    data: {
      type: "game",
      name: "Slay the Spire 2",
      steam_appid: 2868840,
      required_age: "16",
      is_free: false,
      about_the_game: "<p>Slay the Spire 2 is the sequel.</p>",
      short_description: "Slay the Spire 2 is the sequel.",
      supported_languages: "English",
      website: null,
      developers: ["Mega Crit"],
      publishers: ["Mega Crit"],
      platforms: { windows: true, mac: true, linux: true },
      categories: [{ id: 2, description: "Single-player" }],
      genres: [{ id: "23", description: "Indie" }],
      release_date: { coming_soon: true, date: "Coming soon" },
    },
  },
};

export const STEAM_APP_UNKNOWN = { "9999999": { success: false } };

const featured = (
  id: number,
  name: string,
  prices: { original: number | null; final: number; percent?: number; ends?: number },
) => ({
  id,
  type: 0,
  name,
  discounted: prices.original !== null,
  discount_percent: prices.percent ?? 0,
  original_price: prices.original,
  final_price: prices.final,
  currency: "EUR",
  large_capsule_image: capsule(id),
  small_capsule_image: capsule(id),
  windows_available: true,
  mac_available: false,
  linux_available: false,
  streamingvideo_available: false,
  ...(prices.ends ? { discount_expiration: prices.ends } : {}),
  header_image: capsule(id),
  controller_support: "full",
});

export const STEAM_FEATURED = {
  "0": {
    id: "cat_spotlight",
    name: "Spotlights",
    items: [
      {
        name: "Autumn Sale",
        header_image: capsule(1),
        body: "<p>Up to 90% off</p>",
        url: "https://store.steampowered.com/sale/autumn",
      },
    ],
  },
  "1": {
    id: "cat_dailydeal",
    name: "Daily Deal",
    items: [featured(1174180, "Red Dead Redemption 2", { original: 5999, final: 1499, percent: 75, ends: 1788886800 })],
  },
  specials: {
    id: "cat_specials",
    name: "Specials",
    items: [
      featured(1174180, "Red Dead Redemption 2", { original: 5999, final: 1499, percent: 75, ends: 1788886800 }),
      featured(105600, "Terraria", { original: 999, final: 499, percent: 50, ends: 1788800400 }),
    ],
  },
  coming_soon: {
    id: "cat_comingsoon",
    name: "Coming Soon",
    items: [featured(2868840, "Slay the Spire 2", { original: null, final: 0 })],
  },
  top_sellers: {
    id: "cat_topsellers",
    name: "Top Sellers",
    items: [
      featured(730, "Counter-Strike 2", { original: null, final: 0 }),
      featured(1174180, "Red Dead Redemption 2", { original: 5999, final: 1499, percent: 75, ends: 1788886800 }),
      featured(730, "Counter-Strike 2", { original: null, final: 0 }),
    ],
  },
  new_releases: {
    id: "cat_newreleases",
    name: "New Releases",
    items: [featured(3321460, "Crimson Desert", { original: null, final: 6999 })],
  },
  genres: { id: "cat_genres", name: "Genres" },
  trailerslideshow: { id: "cat_trailerslideshow", name: "Trailer Slideshow" },
  status: 1,
};

export const STEAM_CURRENT_PLAYERS = { response: { player_count: 48213, result: 1 } };
export const STEAM_NO_SUCH_APP_PLAYERS = { response: { result: 42 } };

/** Percentages come as strings with float noise. */
export const STEAM_ACHIEVEMENT_SHARES = {
  achievementpercentages: {
    achievements: [
      { name: "PORTAL2_WAKE_UP", percent: "93.4000015258789062" },
      { name: "PORTAL2_YOU_MONSTER", percent: "71.5999984741210938" },
      { name: "PORTAL2_UNDISCOVERED", percent: "58.2000007629394531" },
      { name: "PORTAL2_STALEMATE", percent: "55.0999984741210938" },
      { name: "PORTAL2_CAREER_COUNSELING", percent: "12.5" },
      { name: "PORTAL2_PARTY_OF_THREE", percent: "3.29999995231628418" },
      { name: "PORTAL2_FRIENDS_LIST", percent: "1.10000002384185791" },
    ],
  },
};

export const STEAM_OWNED_GAMES = {
  response: {
    game_count: 3,
    games: [
      {
        appid: 400,
        name: "Portal",
        playtime_forever: 318,
        img_icon_url: "cfa928ab4119dd137e50d728e8fe703e4e970aff",
        has_community_visible_stats: true,
        playtime_windows_forever: 318,
        playtime_mac_forever: 0,
        playtime_linux_forever: 0,
        playtime_deck_forever: 0,
        rtime_last_played: 1688227200,
        playtime_disconnected: 0,
      },
      {
        appid: 620,
        name: "Portal 2",
        playtime_2weeks: 95,
        playtime_forever: 1475,
        img_icon_url: "2e478fc6874d06ae5baf0d147f6f21203291aa02",
        has_community_visible_stats: true,
        playtime_windows_forever: 1200,
        playtime_mac_forever: 0,
        playtime_linux_forever: 275,
        playtime_deck_forever: 0,
        rtime_last_played: 1763942400,
        playtime_disconnected: 0,
      },
      {
        appid: 1255980,
        name: "Portal Reloaded",
        playtime_forever: 0,
        img_icon_url: "6d9fb4bba4ee0db2b0c1ab2f6b4f0e9c34cd4a7b",
        has_community_visible_stats: true,
        playtime_windows_forever: 0,
        playtime_mac_forever: 0,
        playtime_linux_forever: 0,
        playtime_deck_forever: 0,
        rtime_last_played: 0,
        playtime_disconnected: 0,
      },
    ],
  },
};

/** What GetOwnedGames answers for a profile whose game details are private. */
export const STEAM_OWNED_GAMES_PRIVATE = { response: {} };

export const STEAM_PLAYER_SUMMARY = {
  response: {
    players: [
      {
        steamid: "76561197960287930",
        communityvisibilitystate: 3,
        profilestate: 1,
        personaname: "Rabscuttle",
        commentpermission: 2,
        profileurl: "https://steamcommunity.com/id/gabelogannewell/",
        avatar: "https://avatars.steamstatic.com/c5d56249ee5d28a07db4ac9f7f60af961fab5426.jpg",
        avatarhash: "c5d56249ee5d28a07db4ac9f7f60af961fab5426",
        lastlogoff: 1763851020,
        personastate: 1,
        realname: "Gabe Newell",
        primaryclanid: "103582791434672565",
        timecreated: 1063407589,
        personastateflags: 0,
        gameextrainfo: "Portal 2",
        gameid: "620",
        loccountrycode: "US",
      },
    ],
  },
};

/** A private profile: only the first fields. */
export const STEAM_PRIVATE_SUMMARY = {
  response: {
    players: [
      {
        steamid: "76561198000000001",
        communityvisibilitystate: 1,
        profilestate: 1,
        personaname: "quiet one",
        profileurl: "https://steamcommunity.com/profiles/76561198000000001/",
        avatar: "https://avatars.steamstatic.com/fef49e7fa7e1997310d705b2a6158ff8dc1cdfeb.jpg",
        personastate: 0,
      },
    ],
  },
};

export const STEAM_NO_PLAYERS = { response: { players: [] } };

export const STEAM_VANITY_RESOLVED = { response: { steamid: "76561197960287930", success: 1 } };
export const STEAM_VANITY_NO_MATCH = { response: { success: 42, message: "No match" } };

/** What api.steampowered.com answers (HTTP 403) for a key it does not accept. */
export const STEAM_FORBIDDEN_PAGE =
  "<html><head><title>Forbidden</title></head><body><h1>Forbidden</h1>Access is denied. Retrying will not " +
  "help. Please verify your <pre>key=</pre> parameter.</body></html>";
