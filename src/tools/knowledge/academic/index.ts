import { z } from "zod";
import { preview } from "../../../shared/truncate.js";
import { defineTool } from "../../kit/define-tool.js";
import { resultLimit } from "../../kit/lenient-parameters.js";
import { ARXIV_SORTS, type Preprint, searchArxiv } from "./arxiv.js";
import { type Paper, searchPapers } from "./semantic-scholar.js";

const ABSTRACT_CHARS = 300;
const AUTHORS_SHOWN = 5;

function authorList(names: string[]): string {
  if (names.length === 0) return "authors unknown";
  const shown = names.slice(0, AUTHORS_SHOWN).join(", ");
  return names.length > AUTHORS_SHOWN ? `${shown} et al. (${names.length} authors)` : shown;
}

const count = (total: number) => `${total.toLocaleString("en")} found`;

function formatPaper(paper: Paper, index: number): string {
  const when = [paper.year, paper.venue].filter(Boolean).join(", ");
  const citations = paper.citationCount == null ? "" : ` — ${paper.citationCount.toLocaleString("en")} citations`;
  const lines = [`${index + 1}. ${paper.title.trim()}${when ? ` (${when})` : ""}${citations}`];
  lines.push(`   ${authorList(paper.authors.map((author) => author.name ?? "").filter(Boolean))}`);
  if (paper.abstract) lines.push(`   ${preview(paper.abstract, ABSTRACT_CHARS)}`);
  const ids = paper.externalIds ?? {};
  const links = [
    paper.url,
    paper.openAccessPdf?.url ? `PDF ${paper.openAccessPdf.url}` : undefined,
    ids.DOI ? `DOI ${ids.DOI}` : undefined,
    ids.ArXiv ? `arXiv ${ids.ArXiv}` : undefined,
  ].filter(Boolean);
  if (links.length) lines.push(`   ${links.join(" · ")}`);
  return lines.join("\n");
}

function formatPreprint(preprint: Preprint, index: number): string {
  const facts = [preprint.published, preprint.category].filter(Boolean).join(", ");
  const lines = [`${index + 1}. ${preprint.title}${facts ? ` (${facts})` : ""}`, `   ${authorList(preprint.authors)}`];
  if (preprint.abstract) lines.push(`   ${preview(preprint.abstract, ABSTRACT_CHARS)}`);
  const links = [preprint.url, preprint.pdf ? `PDF ${preprint.pdf}` : undefined].filter(Boolean);
  if (links.length) lines.push(`   ${links.join(" · ")}`);
  return lines.join("\n");
}

const YEAR = z.number().int().min(0).max(3000).default(0);

export const academicTools = [
  defineTool({
    name: "search_papers",
    description:
      "Search published research papers on Semantic Scholar: title, year, venue, citations, authors, abstract " +
      "and links (open-access PDF, DOI, arXiv id).",
    parameters: z.object({
      query: z.string().trim().min(1),
      max_results: resultLimit(50, 5),
      year_min: YEAR.describe("Earliest publication year; 0 = any"),
      year_max: YEAR.describe("Latest publication year; 0 = any"),
      open_access_only: z.boolean().default(false).describe("Only papers with a free PDF"),
    }),
    effect: "read",
    handler: async ({ query, max_results, year_min, year_max, open_access_only }, context) => {
      const search = { query, limit: max_results, yearMin: year_min, yearMax: year_max };
      const { total, papers } = await searchPapers(context, { ...search, openAccessOnly: open_access_only });
      if (papers.length === 0) {
        return `Semantic Scholar has no paper matching '${query}' with these filters. Try other or fewer words.`;
      }
      return `Semantic Scholar papers for '${query}' (${count(total)}):\n${papers.map(formatPaper).join("\n")}`;
    },
  }),
  defineTool({
    name: "search_arxiv",
    description:
      "Search arXiv preprints: title, authors, date, category, abstract, abstract page and PDF links. Plain words " +
      "must all occur; arXiv syntax such as ti:, au:, cat:cs.CL, AND/OR is passed on as written.",
    parameters: z.object({
      query: z.string().trim().min(1),
      max_results: resultLimit(50, 5),
      sort_by: z.enum(ARXIV_SORTS).default("relevance").describe("relevance, or newest first by either date"),
    }),
    effect: "read",
    handler: async ({ query, max_results, sort_by }, context) => {
      const { total, preprints } = await searchArxiv(context, query, max_results, sort_by);
      if (preprints.length === 0) return `arXiv has no preprint matching '${query}'. Try other or fewer words.`;
      const order = sort_by === "relevance" ? "most relevant first" : `newest first by ${sort_by}`;
      return `arXiv preprints for '${query}' (${count(total)}, ${order}):\n${preprints.map(formatPreprint).join("\n")}`;
    },
  }),
];
