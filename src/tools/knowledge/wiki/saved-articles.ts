import { mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "../../../state/atomic-file.js";
import { readTextInside } from "../../../workspace/read-inside.js";
import { resolveInside } from "../../../workspace/sandbox.js";
import { type ToolContext, ToolError } from "../../kit/define-tool.js";

const LABEL = "Saved Wikipedia articles folder";

/** Where wiki_full saves articles: `~/Downloads/wikipedia/<language>/<Title>.txt`. */
function savedArticlesRoot(context: Pick<ToolContext, "home">): string {
  return join(context.home, "Downloads", "wikipedia");
}

/**
 * The file name of a title: Wikipedia's underscore spelling, with the characters a file name
 * cannot hold (and a leading dot) replaced, so a title can never name a path elsewhere.
 */
function articleFileName(title: string): string {
  const name = title
    .trim()
    .replace(/\.txt$/i, "")
    .replace(/[\s]+/g, "_")
    .replace(/[/\\\p{Cc}]/gu, "_")
    .replace(/^\./, "_")
    .slice(0, 200);
  return `${name || "_"}.txt`;
}

interface SavedArticle {
  /** Absolute path of the saved file. */
  path: string;
  bytes: number;
}

/** Writes an article's text below the saved-articles root (never through a link leading out of it). */
export async function saveArticle(
  context: Pick<ToolContext, "home">,
  language: string,
  title: string,
  text: string,
): Promise<SavedArticle> {
  const root = savedArticlesRoot(context);
  await mkdir(join(root, language), { recursive: true });
  const path = await resolveInside(root, join(language, articleFileName(title)), { write: true, label: LABEL });
  await writeFileAtomic(path, text, { mode: 0o644 });
  return { path, bytes: Buffer.byteLength(text) };
}

/** The saved article files of one language, by name. */
async function savedNames(root: string, language: string): Promise<string[]> {
  const entries = await readdir(join(root, language), { withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => (entry.isFile() || entry.isSymbolicLink()) && entry.name.endsWith(".txt"))
    .map((entry) => entry.name);
}

const titleOf = (fileName: string) => fileName.replace(/\.txt$/, "").replace(/_/g, " ");

/**
 * The text of a saved article, found by title (the exact spelling, else ignoring case); a ToolError
 * listing the saved articles when there is none.
 */
export async function readSavedArticle(
  context: Pick<ToolContext, "home">,
  language: string,
  title: string,
): Promise<{ title: string; text: string }> {
  const root = savedArticlesRoot(context);
  const wanted = articleFileName(title.split(/[/\\]/).pop() ?? title);
  const names = await savedNames(root, language);
  const name = names.includes(wanted) ? wanted : names.find((saved) => saved.toLowerCase() === wanted.toLowerCase());
  const text = name === undefined ? undefined : await readTextInside(root, join(language, name), LABEL);
  if (name === undefined || text === undefined) {
    const saved = names.length ? `Saved (${language}): ${names.map(titleOf).join(", ")}.` : "";
    throw new ToolError(
      `No saved Wikipedia article '${title}' (${language}) in ${join(root, language)}. ` +
        `Save it first with wiki_full. ${saved}`.trim(),
    );
  }
  return { title: titleOf(name), text };
}
