import { z } from "zod";
import { preview } from "../../../shared/truncate.js";
import { defineTool } from "../../kit/define-tool.js";
import { resultLimit } from "../../kit/lenient-parameters.js";
import { type FeedItem, fetchFeed } from "./feed.js";

const SUMMARY_CHARS = 300;

/** "2026-11-24 09:30 UTC" when the date parses, the feed's own text otherwise. */
function shownDate(date: string | undefined): string | undefined {
  if (!date) return undefined;
  const parsed = new Date(date);
  if (Number.isNaN(parsed.getTime())) return date;
  return `${parsed.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

function formatItem(item: FeedItem, index: number): string {
  const date = shownDate(item.date);
  const lines = [`${index + 1}. ${item.title || "(untitled)"}${date ? ` (${date})` : ""}`];
  if (item.link) lines.push(`   ${item.link}`);
  if (item.summary) lines.push(`   ${preview(item.summary, SUMMARY_CHARS)}`);
  return lines.join("\n");
}

export const feedTools = [
  defineTool({
    name: "read_rss",
    description:
      "Read an RSS, Atom or RDF feed: the newest items with title, date, link and a short plain-text summary.",
    parameters: z.object({
      url: z.string().trim().min(1).describe("The feed's http(s) address"),
      max_items: resultLimit(50, 5),
    }),
    effect: "read",
    handler: async ({ url, max_items }, context) => {
      const feed = await fetchFeed(context, url);
      const name = `${feed.title || url}${feed.link ? ` (${feed.link})` : ""}`;
      if (feed.items.length === 0) return `The ${feed.kind} feed ${name} has no items at the moment.`;
      const shown = feed.items.slice(0, max_items);
      const count = shown.length < feed.items.length ? `${shown.length} of ${feed.items.length}` : `${shown.length}`;
      return `${feed.kind} feed ${name}, ${count} items:\n${shown.map(formatItem).join("\n")}`;
    },
  }),
];
