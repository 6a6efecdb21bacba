import type { ToolContext } from "../define-tool.js";
import { type HtmlElement, inlineText, parseHtml } from "../html/index.js";
import { type ExternalService, http, ServiceError } from "../http/index.js";

/** DuckDuckGo's JavaScript-free result page, which needs no key (the web and the movie/game fallbacks use it). */
const DUCKDUCKGO: ExternalService = {
  name: "DuckDuckGo",
  envVar: "MARVIN_DDG_URL",
  defaultUrl: "https://html.duckduckgo.com",
};

/** DuckDuckGo's `df` filter: results from the past day, week, month or year. */
export type TimeFilter = "d" | "w" | "m" | "y";

export interface WebResult {
  title: string;
  /** The page itself, not DuckDuckGo's `/l/?uddg=` redirect to it. */
  url: string;
  snippet: string;
}

interface WebSearchOptions {
  limit: number;
  timeFilter?: TimeFilter;
  /** DuckDuckGo's `kl` region code, e.g. "de-de", "us-en". */
  region?: string;
}

/** Result links lead through `//duckduckgo.com/l/?uddg=<target>&rut=…`; the target is what the user wants. */
function targetOf(href: string): string | undefined {
  let link: URL;
  try {
    link = new URL(href, "https://duckduckgo.com/");
  } catch {
    return undefined;
  }
  const isRedirect = link.hostname.endsWith("duckduckgo.com") && link.pathname === "/l/";
  const target = isRedirect ? link.searchParams.get("uddg") : link.href;
  if (!target || !/^https?:\/\//i.test(target)) return undefined;
  return target;
}

/** Ads lead through `duckduckgo.com/y.js` and are marked `result--ad`. */
const isAd = (result: HtmlElement, href: string) =>
  result.getAttribute("class")?.split(/\s+/).includes("result--ad") === true || href.includes("/y.js");

async function readResult(result: HtmlElement): Promise<WebResult | undefined> {
  const anchor = result.querySelector("a.result__a");
  const href = anchor?.getAttribute("href");
  if (!anchor || !href || isAd(result, href)) return undefined;
  const url = targetOf(href);
  if (!url) return undefined;
  const snippet = result.querySelector(".result__snippet");
  return {
    title: await inlineText(anchor.innerHTML),
    url,
    snippet: snippet ? await inlineText(snippet.innerHTML) : "",
  };
}

/** When DuckDuckGo suspects a bot it answers with a challenge page instead of results. */
const CHALLENGE_MARKERS = /anomaly-modal|challenge-form|bots use DuckDuckGo too/i;

/** Web pages matching `query`, best first; empty when DuckDuckGo finds nothing. */
export async function searchDuckDuckGo(
  context: Pick<ToolContext, "env" | "signal">,
  query: string,
  { limit, timeFilter, region }: WebSearchOptions,
): Promise<WebResult[]> {
  const page = await http(context).getText(DUCKDUCKGO, "/html/", { q: query, df: timeFilter, kl: region });
  const document = await parseHtml(page);
  const results: WebResult[] = [];
  for (const element of document.querySelectorAll(".result")) {
    const result = await readResult(element);
    if (result && !results.some((earlier) => earlier.url === result.url)) results.push(result);
    if (results.length === limit) break;
  }
  if (results.length === 0 && CHALLENGE_MARKERS.test(page)) {
    throw new ServiceError(
      "DuckDuckGo answered with a bot check instead of results (too many searches from this address). " +
        "Wait a minute and try again.",
      { service: DUCKDUCKGO.name, kind: "rate-limited" },
    );
  }
  return results;
}
