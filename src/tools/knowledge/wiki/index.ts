import { z } from "zod";
import { defineTool, type ToolContext } from "../../kit/define-tool.js";
import { resultLimit } from "../../kit/lenient-parameters.js";
import { grepArticle } from "./article-grep.js";
import { readSavedArticle, saveArticle } from "./saved-articles.js";
import { type FoundArticle, fetchArticle, fetchSummary, LANGUAGE, searchArticles } from "./wikipedia.js";

const TITLE = z.string().trim().min(1).describe('Article title, e.g. "Ada Lovelace"');
const MAX_SECTIONS_SHOWN = 40;

function formatArticle(article: FoundArticle, index: number): string {
  const words = article.words === undefined ? "" : ` (${article.words.toLocaleString("en")} words)`;
  return `${index + 1}. ${article.title}${words}\n   ${article.snippet}\n   ${article.url}`;
}

/** What to say when a title is not an article: the closest search results, so the model can pick one. */
async function noSuchArticle(context: ToolContext, language: string, title: string): Promise<string> {
  const { articles } = await searchArticles(context, language, title, 5);
  const nearest = articles.length
    ? ` Articles with similar titles:\n${articles.map(formatArticle).join("\n")}`
    : " A search for it finds nothing either.";
  return `Wikipedia (${language}) has no article called '${title}'.${nearest}`;
}

/** The saved file: a short header naming the source, then the text with runs of blank lines collapsed. */
function savedText(title: string, url: string, text: string): string {
  const body = text.replace(/\n{3,}/g, "\n\n").trim();
  const date = new Date().toISOString().slice(0, 10);
  return `${title}\n${url}\nFrom Wikipedia on ${date}; text available under CC BY-SA 4.0.\n\n${body}\n`;
}

const sectionsOf = (text: string) => [...text.matchAll(/^==\s*([^=].*?)\s*==$/gm)].map((match) => match[1]!);

function describeSize(bytes: number, text: string): string {
  const kb = `${Number((bytes / 1024).toFixed(1))} KB`;
  const lines = text.split("\n").length;
  const words = text.split(/\s+/).filter(Boolean).length;
  return `${kb}, ${lines.toLocaleString("en")} lines, ${words.toLocaleString("en")} words`;
}

export const wikiTools = [
  defineTool({
    name: "wiki_search",
    description: "Search Wikipedia: matching article titles with a snippet, word count and link, best match first.",
    parameters: z.object({
      query: z.string().trim().min(1),
      max_results: resultLimit(50, 5),
      language: LANGUAGE,
    }),
    effect: "read",
    handler: async ({ query, max_results, language }, context) => {
      const { total, suggestion, articles } = await searchArticles(context, language, query, max_results);
      if (articles.length === 0) {
        const hint = suggestion ? ` Did you mean '${suggestion}'?` : " Try other or fewer words.";
        return `No Wikipedia (${language}) article matches '${query}'.${hint}`;
      }
      const count = `${total.toLocaleString("en")} match${total === 1 ? "" : "es"}`;
      return `Wikipedia (${language}) results for '${query}' (${count}):\n${articles.map(formatArticle).join("\n")}`;
    },
  }),
  defineTool({
    name: "wiki_summary",
    description:
      "The introduction of a Wikipedia article (a few paragraphs) with its short description and link. " +
      "For the whole article use wiki_full, then wiki_grep.",
    parameters: z.object({ title: TITLE, language: LANGUAGE }),
    effect: "read",
    handler: async ({ title, language }, context) => {
      const summary = await fetchSummary(context, language, title);
      if (!summary) return noSuchArticle(context, language, title);
      if (summary.isDisambiguation) {
        const { articles } = await searchArticles(context, language, title, 8);
        const options = articles.filter((article) => article.title !== summary.title);
        const list = options.length ? `\nArticles it may mean:\n${options.map(formatArticle).join("\n")}` : "";
        return (
          `'${summary.title}' is a disambiguation page (${summary.url}): ${summary.extract}${list}\n` +
          "Ask wiki_summary for the article meant."
        );
      }
      const description = summary.description ? ` — ${summary.description}` : "";
      return `${summary.title}${description}\n${summary.url}\n\n${summary.extract}`;
    },
  }),
  defineTool({
    name: "wiki_full",
    description:
      "Save a whole Wikipedia article as plain text to ~/Downloads/wikipedia/<language>/ and tell where it is and " +
      "how big (not its text). Then search it with wiki_grep.",
    parameters: z.object({ title: TITLE, language: LANGUAGE }),
    effect: "write",
    handler: async ({ title, language }, context) => {
      const article = await fetchArticle(context, language, title);
      if (!article) return noSuchArticle(context, language, title);
      const text = savedText(article.title, article.url, article.text);
      const saved = await saveArticle(context, language, article.title, text);
      const sections = sectionsOf(article.text);
      const shown = sections.slice(0, MAX_SECTIONS_SHOWN).join("; ");
      const more = sections.length > MAX_SECTIONS_SHOWN ? ` (and ${sections.length - MAX_SECTIONS_SHOWN} more)` : "";
      const renamed = article.title === title ? "" : ` (asked for as '${title}')`;
      return {
        text:
          `Saved the Wikipedia article '${article.title}'${renamed} to ${saved.path}: ` +
          `${describeSize(saved.bytes, text)}.\n${article.url}\n` +
          (sections.length ? `Sections: ${shown}${more}.\n` : "") +
          `Search it with wiki_grep (title '${article.title}'${language === "en" ? "" : `, language ${language}`}).`,
        details: { path: saved.path, bytes: saved.bytes, title: article.title, url: article.url },
      };
    },
  }),
  defineTool({
    name: "wiki_grep",
    description:
      "Search a Wikipedia article saved by wiki_full: the matching lines (paragraphs) with their section and " +
      "context. The pattern is a case-insensitive regular expression or plain text.",
    parameters: z.object({
      title: TITLE,
      pattern: z.string().min(1).describe('e.g. "born", "Nobel Prize", "19[0-9]{2}"'),
      context_lines: z.number().int().min(0).max(5).default(1).describe("Lines shown before and after a match"),
      max_matches: resultLimit(100, 20),
      language: LANGUAGE,
    }),
    effect: "read",
    handler: async ({ title, pattern, context_lines, max_matches, language }, context) => {
      const article = await readSavedArticle(context, language, title);
      return grepArticle(article.title, article.text, pattern, {
        contextLines: context_lines,
        maxMatches: max_matches,
      });
    },
  }),
];
