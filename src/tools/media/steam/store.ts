import { z } from "zod";
import type { ToolContext } from "../../kit/define-tool.js";
import { type ExternalService, http } from "../../kit/http/index.js";

/** The Steam store's JSON endpoints: search, app details, featured lists. No key. */
const STEAM_STORE: ExternalService = {
  name: "Steam Store",
  envVar: "MARVIN_STEAM_STORE_URL",
  defaultUrl: "https://store.steampowered.com",
};

/** Texts in English; prices in the currency of `country` (the store's `cc`). */
const storeQuery = (country: string) => ({ cc: country, l: "english" });

/** Prices are in the currency's hundredths: 1999 with "USD" is $19.99. */
const searchPrice = z.object({ currency: z.string(), initial: z.number(), final: z.number() });

const searchItem = z.object({
  type: z.string(),
  name: z.string(),
  id: z.number(),
  /** Missing for free games. */
  price: searchPrice.optional(),
  /** A string, empty when there is no score. */
  metascore: z.string().default(""),
  platforms: z.object({ windows: z.boolean(), mac: z.boolean(), linux: z.boolean() }).partial().default({}),
});

const searchAnswer = z.object({ total: z.number(), items: z.array(searchItem) });

export type StoreSearchItem = z.output<typeof searchItem>;

export async function searchStore(context: ToolContext, term: string, country: string) {
  return http(context).getJson(STEAM_STORE, "/api/storesearch/", { term, ...storeQuery(country) }, searchAnswer);
}

const priceOverview = z.object({
  currency: z.string(),
  initial: z.number(),
  final: z.number(),
  discount_percent: z.number().default(0),
});

const described = z.object({ description: z.string() });

const appData = z.object({
  type: z.string(),
  name: z.string(),
  steam_appid: z.number(),
  /** A number, or a string such as "17" for some apps. */
  required_age: z.union([z.number(), z.string()]).default(0),
  is_free: z.boolean().default(false),
  /** HTML. */
  short_description: z.string().default(""),
  /** HTML. */
  about_the_game: z.string().default(""),
  /** HTML: "English<strong>*</strong>, French<br><strong>*</strong>languages with full audio support". */
  supported_languages: z.string().default(""),
  website: z.string().nullable().default(null),
  developers: z.array(z.string()).default([]),
  publishers: z.array(z.string()).default([]),
  price_overview: priceOverview.optional(),
  platforms: z.object({ windows: z.boolean(), mac: z.boolean(), linux: z.boolean() }).partial().default({}),
  metacritic: z.object({ score: z.number(), url: z.string().optional() }).optional(),
  genres: z.array(described).default([]),
  categories: z.array(described).default([]),
  recommendations: z.object({ total: z.number() }).optional(),
  achievements: z.object({ total: z.number() }).optional(),
  /** `date` is as the store shows it: "21 Aug, 2012", "Aug 21, 2012", "Q3 2026", "Coming soon". */
  release_date: z.object({ coming_soon: z.boolean(), date: z.string() }).optional(),
});

export type AppDetails = z.output<typeof appData>;

/** Keyed by the app id asked for; `success: false` (and no data) when the store has no such app. */
const appDetailsAnswer = z.record(z.string(), z.object({ success: z.boolean(), data: appData.optional() }));

/** The store page data of one app; undefined when the store has none for that id. */
export async function appDetails(context: ToolContext, appId: number, country: string) {
  const query = { appids: appId, ...storeQuery(country) };
  const answer = await http(context).getJson(STEAM_STORE, "/api/appdetails", query, appDetailsAnswer);
  const entry = answer[String(appId)];
  return entry?.success ? entry.data : undefined;
}

/** An item of a featured list; prices in hundredths, `original_price` null when not discounted. */
const featuredItem = z.object({
  id: z.number(),
  name: z.string(),
  discounted: z.boolean().default(false),
  discount_percent: z.number().default(0),
  original_price: z.number().nullable().default(null),
  final_price: z.number().nullable().default(null),
  currency: z.string().default("USD"),
  /** Unix seconds. */
  discount_expiration: z.number().optional(),
});

const featuredList = z.object({ name: z.string(), items: z.array(featuredItem).default([]) });

/** The other keys ("0", "1"…: spotlights, daily deal; "genres", "trailerslideshow", "status") are not lists of apps. */
const featuredAnswer = z.object({
  specials: featuredList.optional(),
  top_sellers: featuredList.optional(),
  new_releases: featuredList.optional(),
  coming_soon: featuredList.optional(),
});

export type FeaturedItem = z.output<typeof featuredItem>;
export type FeaturedLists = z.output<typeof featuredAnswer>;

export async function featuredCategories(context: ToolContext, country: string): Promise<FeaturedLists> {
  return http(context).getJson(STEAM_STORE, "/api/featuredcategories", storeQuery(country), featuredAnswer);
}
