import type { ToolContext } from "../../../kit/define-tool.js";
import type { TimeFilter } from "../../../kit/duckduckgo/index.js";
import type { NewsItem } from "./news-item.js";

export interface NewsQuery {
  query: string;
  limit: number;
  timeFilter: TimeFilter | undefined;
  /** Start of the time filter, for services that take a date. */
  since: Date | undefined;
}

/** One news service: asked only when `enabled` (its key is set), answering with articles. */
export interface NewsSource {
  name: string;
  /** The variable holding its key, named when the service refuses it. */
  keyVariable?: string;
  enabled(context: Pick<ToolContext, "env">): boolean;
  search(context: Pick<ToolContext, "env" | "signal">, query: NewsQuery): Promise<NewsItem[]>;
}

/** A date from an ISO 8601 string, or undefined when there is none or it does not parse. */
export function parseDate(text: string | null | undefined): Date | undefined {
  if (!text) return undefined;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
