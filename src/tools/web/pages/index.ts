import { browseWeb } from "./browse/browse-web.js";
import { searchNews } from "./news/search-news.js";
import { scrapePage } from "./scrape/scrape-page.js";
import { webSearch } from "./web-search.js";

/** The web domain (seed 000 §2.8): search, news, and pages read as text. */
export const webTools = [webSearch, searchNews, browseWeb, scrapePage];
