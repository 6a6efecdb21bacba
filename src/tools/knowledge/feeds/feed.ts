import type { AtomFeed, RdfFeed, RssFeed } from "feedsmith";
import type { ToolContext } from "../../kit/define-tool.js";
import { inlineText } from "../../kit/html/index.js";
import { http, type RequestOptions, ServiceError } from "../../kit/http/index.js";

export interface FeedItem {
  title: string;
  link: string | undefined;
  /** As the feed wrote it (RFC 822 in RSS, ISO 8601 in Atom and RDF). */
  date: string | undefined;
  /** Plain text, HTML removed. */
  summary: string;
}

export interface Feed {
  kind: "RSS" | "Atom" | "RDF";
  title: string;
  link: string | undefined;
  items: FeedItem[];
}

const ACCEPT =
  "application/rss+xml, application/atom+xml, application/rdf+xml;q=0.9, application/xml;q=0.8, text/xml;q=0.8, " +
  "*/*;q=0.1";

/** Titles and descriptions may hold HTML and (even double) entities: always one line of plain text. */
const plain = async (html: string | undefined) => (html ? inlineText(html) : "");

/** Dates stay as the feed wrote them (feedsmith types them loosely). */
const text = (value: unknown) => (typeof value === "string" ? value : undefined);

type AnyItem = { title?: string; link?: string; description?: string; dc?: { dates?: string[] } };

async function rssItem(item: RssFeed.Item<unknown> | RdfFeed.Item<unknown>): Promise<FeedItem> {
  const common = item as AnyItem;
  const rss = item as RssFeed.Item<unknown>;
  return {
    title: await plain(common.title),
    link: common.link ?? (rss.guid?.isPermaLink !== false ? rss.guid?.value : undefined),
    date: text(rss.pubDate) ?? common.dc?.dates?.[0],
    summary: await plain(common.description ?? rss.content?.encoded),
  };
}

async function atomEntry(entry: AtomFeed.Entry<unknown>): Promise<FeedItem> {
  const links = entry.links ?? [];
  return {
    title: await plain(entry.title?.value),
    link: (links.find((link) => !link.rel || link.rel === "alternate") ?? links[0])?.href,
    date: text(entry.published) ?? text(entry.updated),
    summary: await plain(entry.summary?.value ?? entry.content?.value),
  };
}

async function readFeed(xml: string): Promise<Feed | undefined> {
  const { parseFeed } = await import("feedsmith");
  let parsed: ReturnType<typeof parseFeed>;
  try {
    parsed = parseFeed(xml);
  } catch {
    return undefined;
  }
  if (parsed.format === "atom") {
    const { feed } = parsed;
    const link = feed.links?.find((candidate) => !candidate.rel || candidate.rel === "alternate")?.href;
    const items = await Promise.all((feed.entries ?? []).map(atomEntry));
    return { kind: "Atom", title: await plain(feed.title?.value), link, items };
  }
  if (parsed.format === "rss" || parsed.format === "rdf") {
    const { feed } = parsed;
    const items = await Promise.all((feed.items ?? []).map(rssItem));
    return { kind: parsed.format === "rss" ? "RSS" : "RDF", title: await plain(feed.title), link: feed.link, items };
  }
  return undefined;
}

/** Fetches a feed from a URL the model chose (through the private-address guard) and reads its items. */
export async function fetchFeed(
  context: Pick<ToolContext, "env" | "signal">,
  url: string,
  request: RequestOptions = {},
): Promise<Feed> {
  const response = await http(context).send({ url }, { ...request, headers: { accept: ACCEPT, ...request.headers } });
  const body = await response.text();
  const feed = await readFeed(body);
  if (!feed) {
    const what = response.contentType.includes("html") ? "a web page" : `'${response.contentType || "unknown"}'`;
    const host = new URL(response.url).host;
    throw new ServiceError(
      `${url} is not an RSS, Atom or RDF feed (${host} sent ${what}). Give the feed's own address — pages often ` +
        'link it as "RSS" or in a <link rel="alternate" type="application/rss+xml">.',
      { service: host, kind: "bad-answer" },
    );
  }
  return feed;
}
