import { z } from "zod";
import { sleep } from "../../../shared/sleep.js";
import type { ToolContext } from "../../kit/define-tool.js";
import {
  type ExternalService,
  http,
  type QueryParams,
  type RequestOptions,
  ServiceError,
  serviceBaseUrl,
} from "../../kit/http/index.js";

const STACK_EXCHANGE: ExternalService = {
  name: "Stack Exchange",
  envVar: "MARVIN_STACKEXCHANGE_URL",
  defaultUrl: "https://api.stackexchange.com",
};

type Caller = Pick<ToolContext, "env" | "signal">;

/** Every answer carries the quota; `backoff` (seconds) appears when the API wants a pause before the same method. */
const wrapper = <Item extends z.ZodType>(item: Item) =>
  z.object({
    items: z.array(item),
    has_more: z.boolean().optional(),
    quota_remaining: z.number().optional(),
    backoff: z.number().optional(),
  });

const owner = z.object({ display_name: z.string().optional() }).optional();

const question = z.object({
  question_id: z.number(),
  /** HTML-encoded: `&#39;`, `&quot;`, `&amp;`. */
  title: z.string(),
  link: z.string(),
  score: z.number(),
  answer_count: z.number(),
  is_answered: z.boolean(),
  accepted_answer_id: z.number().optional(),
  view_count: z.number().optional(),
  creation_date: z.number(),
  tags: z.array(z.string()).default([]),
});

const answer = z.object({
  answer_id: z.number(),
  is_accepted: z.boolean(),
  score: z.number(),
  creation_date: z.number(),
  owner,
  /** HTML, present with `filter=withbody`. */
  body: z.string(),
});

export type Question = z.output<typeof question>;
export type Answer = z.output<typeof answer>;

export interface Page<Item> {
  items: Item[];
  quotaRemaining: number | undefined;
}

/** Seconds the API asked Marvin to leave a method alone, per service address and method. */
const backoffUntil = new Map<string, number>();
/** The longest requested pause Marvin sits out; a longer one fails with the time to come back. */
const LONGEST_BACKOFF_MS = 10_000;

async function respectBackoff(key: string, signal: AbortSignal): Promise<void> {
  const waitMs = (backoffUntil.get(key) ?? 0) - Date.now();
  if (waitMs <= 0) return;
  if (waitMs > LONGEST_BACKOFF_MS) {
    const seconds = Math.ceil(waitMs / 1000);
    const message = `Stack Exchange asked Marvin to pause this kind of request; try again in ${seconds} s.`;
    throw new ServiceError(message, { service: STACK_EXCHANGE.name, kind: "rate-limited" });
  }
  await sleep(waitMs, signal);
}

async function get<Item extends z.ZodType>(
  context: Caller,
  method: string,
  path: string,
  query: QueryParams,
  item: Item,
  request?: RequestOptions,
): Promise<Page<z.output<Item>>> {
  const key = `${serviceBaseUrl(context.env, STACK_EXCHANGE)} ${method}`;
  await respectBackoff(key, context.signal);
  const page = await http(context).getJson(STACK_EXCHANGE, path, query, wrapper(item), request);
  if (page.backoff) backoffUntil.set(key, Date.now() + page.backoff * 1000);
  return { items: page.items as z.output<Item>[], quotaRemaining: page.quota_remaining };
}

interface QuestionSearch {
  query: string;
  site: string;
  /** Tags every question must have. */
  tags: string[];
  sort: "relevance" | "votes" | "creation" | "activity";
  limit: number;
}

/** Questions matching the search (`/search/advanced`), as the API sorts them. */
export function searchQuestions(context: Caller, search: QuestionSearch, request?: RequestOptions) {
  const query = {
    q: search.query,
    site: search.site,
    tagged: search.tags.length ? search.tags.join(";") : undefined,
    sort: search.sort,
    order: "desc",
    pagesize: search.limit,
  };
  return get(context, "search", "/2.3/search/advanced", query, question, request);
}

/** One question's title and link, or undefined when the site has no such question. */
export async function fetchQuestion(context: Caller, site: string, id: number, request?: RequestOptions) {
  const page = await get(context, "questions", `/2.3/questions/${id}`, { site }, question, request);
  return page.items[0];
}

/** A question's answers with their bodies, highest score first. */
export function fetchAnswers(context: Caller, site: string, id: number, limit: number, request?: RequestOptions) {
  const query = { site, filter: "withbody", sort: "votes", order: "desc", pagesize: limit };
  return get(context, "answers", `/2.3/questions/${id}/answers`, query, answer, request);
}
