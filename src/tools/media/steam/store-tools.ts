import { z } from "zod";
import { errorMessage } from "../../../shared/error-message.js";
import { truncateText } from "../../../shared/truncate.js";
import { defineTool } from "../../kit/define-tool.js";
import { htmlToText, inlineText } from "../../kit/html/index.js";
import { resultLimit } from "../../kit/lenient-parameters.js";
import { dateOf, platformNames, priceWithDiscount, storeDate, storeUrl } from "./format.js";
import {
  type AppDetails,
  appDetails,
  type FeaturedItem,
  type FeaturedLists,
  featuredCategories,
  type StoreSearchItem,
  searchStore,
} from "./store.js";
import { type AchievementShare, achievementShares, currentPlayers } from "./web-api.js";

const ABOUT_CHARS = 1200;
const FEATURED_PER_LIST = 8;
const ACHIEVEMENTS_SHOWN = 5;

const country = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2}$/, 'A two-letter country code, e.g. "us", "de", "gb".')
  .default("us")
  .transform((code) => code.toLowerCase())
  .describe('Store country, which sets the currency: "us" (USD), "de" (EUR), "gb" (GBP)…');

const appId = z.number().int().positive().describe("Steam app id, e.g. 620 (from steam_search or a store URL)");

function searchLine(item: StoreSearchItem, index: number): string {
  const price = item.price
    ? priceWithDiscount(item.price.initial, item.price.final, item.price.currency)
    : "no price (free, or not on sale yet)";
  const facts = [`app ${item.id}`, price];
  if (item.metascore) facts.push(`Metacritic ${item.metascore}`);
  const platforms = platformNames(item.platforms);
  if (platforms) facts.push(platforms);
  return `${index + 1}. ${item.name} — ${facts.join(", ")} — ${storeUrl(item.id)}`;
}

const steamSearch = defineTool({
  name: "steam_search",
  description:
    "Search the Steam store: name, app id, price (with currency and discount), Metacritic score and platforms " +
    "of each match. More with steam_app_details.",
  parameters: z.object({
    query: z.string().trim().min(1).describe('Game name, e.g. "portal"'),
    max_results: resultLimit(25, 10),
    country,
  }),
  effect: "read",
  timeoutMs: 40_000,
  handler: async ({ query, max_results: limit, country }, context) => {
    const { items } = await searchStore(context, query, country);
    if (items.length === 0) return `The Steam store has nothing matching '${query}'. Try fewer or other words.`;
    return `Steam store matches for '${query}':\n${items.slice(0, limit).map(searchLine).join("\n")}`;
  },
});

function priceOf(app: AppDetails): string | undefined {
  const price = app.price_overview;
  if (price) return priceWithDiscount(price.initial, price.final, price.currency);
  return app.is_free ? "free to play" : undefined;
}

function releaseOf(app: AppDetails): string | undefined {
  if (!app.release_date) return undefined;
  const date = storeDate(app.release_date.date);
  return app.release_date.coming_soon ? `coming soon (${date || "date not announced"})` : date;
}

async function detailFields(app: AppDetails): Promise<Array<[string, string | undefined]>> {
  const age = Number(app.required_age);
  return [
    ["Type", app.type],
    ["Price", priceOf(app)],
    ["Released", releaseOf(app)],
    ["Developers", app.developers.join(", ") || undefined],
    ["Publishers", app.publishers.join(", ") || undefined],
    ["Genres", app.genres.map((genre) => genre.description).join(", ") || undefined],
    ["Platforms", platformNames(app.platforms) || undefined],
    ["Metacritic", app.metacritic ? String(app.metacritic.score) : undefined],
    ["Recommendations", app.recommendations?.total.toLocaleString("en-US")],
    ["Achievements", app.achievements?.total.toLocaleString("en-US")],
    ["Minimum age", age > 0 ? String(age) : undefined],
    ["Features", app.categories.map((category) => category.description).join(", ") || undefined],
    ["Languages", app.supported_languages ? await inlineText(app.supported_languages) : undefined],
    ["Website", app.website || undefined],
  ];
}

async function formatAppDetails(app: AppDetails): Promise<string> {
  const lines = [`${app.name} (app ${app.steam_appid}) — ${storeUrl(app.steam_appid)}`];
  for (const [label, value] of await detailFields(app)) if (value) lines.push(`${label}: ${value}`);
  const summary = await inlineText(app.short_description);
  if (summary) lines.push("", summary);
  const about = await htmlToText(app.about_the_game);
  if (about && about !== summary) lines.push("", truncateText(about, ABOUT_CHARS));
  return lines.join("\n");
}

const steamAppDetails = defineTool({
  name: "steam_app_details",
  description:
    "Store page of a Steam app by id: price (currency, discount), release date, developers, genres, platforms, " +
    "Metacritic score, recommendations, languages and description.",
  parameters: z.object({ app_id: appId, country }),
  effect: "read",
  timeoutMs: 40_000,
  handler: async ({ app_id: id, country }, context) => {
    const app = await appDetails(context, id, country);
    if (!app)
      return `The Steam store has no app ${id} (or it is not sold in '${country}'). Find ids with steam_search.`;
    return formatAppDetails(app);
  },
});

function featuredLine(item: FeaturedItem, index: number, upcoming: boolean): string {
  const facts = [`app ${item.id}`];
  if (item.final_price !== null && !(upcoming && item.final_price === 0)) {
    const initial = item.discounted ? item.original_price : null;
    facts.push(item.final_price === 0 ? "free" : priceWithDiscount(initial, item.final_price, item.currency));
  }
  if (item.discounted && item.discount_expiration) facts.push(`offer ends ${dateOf(item.discount_expiration)}`);
  return `${index + 1}. ${item.name} — ${facts.join(", ")}`;
}

const FEATURED_LISTS: Array<[keyof FeaturedLists, string]> = [
  ["specials", "Specials (discounts)"],
  ["top_sellers", "Top sellers"],
  ["new_releases", "New releases"],
  ["coming_soon", "Coming soon"],
];

function formatFeatured(lists: FeaturedLists): string {
  const sections: string[] = [];
  for (const [key, title] of FEATURED_LISTS) {
    const items = lists[key]?.items ?? [];
    const unique = items.filter((item, index) => items.findIndex((other) => other.id === item.id) === index);
    if (unique.length === 0) continue;
    const lines = unique
      .slice(0, FEATURED_PER_LIST)
      .map((item, index) => featuredLine(item, index, key === "coming_soon"));
    sections.push(`${title}:\n${lines.join("\n")}`);
  }
  return sections.length > 0 ? sections.join("\n\n") : "The Steam store features nothing right now.";
}

const steamFeatured = defineTool({
  name: "steam_featured",
  description:
    "What the Steam store features now: current discounts with prices and end dates, top sellers, " +
    "new releases and upcoming games.",
  parameters: z.object({ country }),
  effect: "read",
  timeoutMs: 40_000,
  handler: async ({ country }, context) => formatFeatured(await featuredCategories(context, country)),
});

/** The shares, or why Steam did not give them (the player count may still be worth having). */
function achievementLines(shares: AchievementShare[] | string): string[] {
  if (typeof shares === "string") return [`Achievements: not available (${shares})`];
  if (shares.length === 0) return ["Achievements: none with global statistics."];
  const sorted = [...shares].sort((first, second) => second.percent - first.percent);
  const share = (item: AchievementShare) => `${item.name} ${Number(item.percent.toFixed(1))}%`;
  const lines = [`Achievements: ${shares.length}, by share of players who unlocked them.`];
  lines.push(`Most common: ${sorted.slice(0, ACHIEVEMENTS_SHOWN).map(share).join(", ")}`);
  if (sorted.length > ACHIEVEMENTS_SHOWN) {
    const rarest = sorted.slice(-ACHIEVEMENTS_SHOWN).reverse();
    lines.push(`Rarest: ${rarest.map(share).join(", ")}`);
  }
  return lines;
}

const steamPlayerStats = defineTool({
  name: "steam_player_stats",
  description:
    "Players in a Steam game right now, and its achievements with the share of players who unlocked them " +
    "(most common and rarest).",
  parameters: z.object({ app_id: appId }),
  effect: "read",
  timeoutMs: 40_000,
  handler: async ({ app_id: id }, context) => {
    const [players, shares] = await Promise.all([
      currentPlayers(context, id),
      achievementShares(context, id).catch((error: unknown) => errorMessage(error)),
    ]);
    if (players === undefined && Array.isArray(shares) && shares.length === 0) {
      return `Steam has no player statistics for app ${id}. Check the id with steam_search.`;
    }
    const now = players === undefined ? "unknown" : players.toLocaleString("en-US");
    return [`Steam app ${id} — ${storeUrl(id)}`, `Players now: ${now}`, ...achievementLines(shares)].join("\n");
  },
});

export const steamStoreTools = [steamSearch, steamAppDetails, steamFeatured, steamPlayerStats];
