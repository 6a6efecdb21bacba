import { z } from "zod";
import type { ToolContext } from "../../kit/define-tool.js";
import { type ExternalService, http, type RequestOptions, ServiceError } from "../../kit/http/index.js";

const SEMANTIC_SCHOLAR: ExternalService = {
  name: "Semantic Scholar",
  envVar: "MARVIN_SEMANTIC_SCHOLAR_URL",
  defaultUrl: "https://api.semanticscholar.org",
};

const FIELDS = "title,year,venue,authors,citationCount,abstract,url,openAccessPdf,externalIds";

/** Semantic Scholar leaves out or nulls what it does not know; an open-access PDF may have an empty URL. */
const paper = z.object({
  paperId: z.string(),
  title: z.string(),
  year: z.number().nullish(),
  venue: z.string().nullish(),
  citationCount: z.number().nullish(),
  abstract: z.string().nullish(),
  url: z.string().nullish(),
  authors: z.array(z.object({ name: z.string().nullish() })).default([]),
  openAccessPdf: z.object({ url: z.string().nullish() }).nullish(),
  externalIds: z.record(z.string(), z.union([z.string(), z.number()]).nullish()).nullish(),
});

const searchAnswer = z.object({
  total: z.number(),
  offset: z.number().optional(),
  next: z.number().optional(),
  data: z.array(paper).default([]),
});

export type Paper = z.output<typeof paper>;

interface PaperQuery {
  query: string;
  limit: number;
  /** 0 = no bound. */
  yearMin: number;
  yearMax: number;
  openAccessOnly: boolean;
}

/** Semantic Scholar's `year` filter: "2015-2020", "2015-" or "-2020"; undefined without bounds. */
function yearRange(yearMin: number, yearMax: number): string | undefined {
  if (!yearMin && !yearMax) return undefined;
  if (yearMin && yearMax && yearMin === yearMax) return String(yearMin);
  return `${yearMin || ""}-${yearMax || ""}`;
}

/** A 429 says how to get more room: an API key, when none is set. */
function withKeyAdvice(error: unknown, hasKey: boolean): unknown {
  if (!(error instanceof ServiceError) || error.kind !== "rate-limited" || hasKey) return error;
  const advice =
    " Without an API key all anonymous users share one small allowance; set SEMANTIC_SCHOLAR_API_KEY " +
    "(free at https://www.semanticscholar.org/product/api) for a quota of your own.";
  return new ServiceError(`${error.message}${advice}`, { service: error.service, kind: error.kind, status: 429 });
}

/** Papers matching the query, most relevant first, with the total Semantic Scholar reports. */
export async function searchPapers(
  context: Pick<ToolContext, "env" | "signal">,
  { query, limit, yearMin, yearMax, openAccessOnly }: PaperQuery,
  request: RequestOptions = {},
): Promise<{ total: number; papers: Paper[] }> {
  const key = context.env.SEMANTIC_SCHOLAR_API_KEY?.trim();
  const parameters = {
    query,
    limit,
    fields: FIELDS,
    year: yearRange(yearMin, yearMax),
    // A filter by presence: any value (even empty) keeps only papers with a public PDF.
    openAccessPdf: openAccessOnly ? "" : undefined,
  };
  const options = { ...request, headers: { ...request.headers, ...(key ? { "x-api-key": key } : {}) } };
  try {
    const answer = await http(context).getJson(
      SEMANTIC_SCHOLAR,
      "/graph/v1/paper/search",
      parameters,
      searchAnswer,
      options,
    );
    return { total: answer.total, papers: answer.data };
  } catch (error) {
    throw withKeyAdvice(error, Boolean(key));
  }
}
