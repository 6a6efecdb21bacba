import { htmlToText } from "../../../kit/html/index.js";

type ReadabilityModule = typeof import("@mozilla/readability");
let readabilityModule: Promise<ReadabilityModule> | undefined;

/**
 * The page's main content as text (Mozilla's Readability, the engine of Firefox's reader view, over a
 * linkedom document); the whole body when Readability finds no article in it.
 */
export async function mainContentText(html: string, url: string): Promise<string> {
  readabilityModule ??= import("@mozilla/readability");
  const [{ Readability }, { parseHTML }] = await Promise.all([readabilityModule, import("linkedom")]);
  const { document } = parseHTML(html);
  const article = new Readability(document as unknown as Document).parse();
  const content = article?.content?.trim() ? article.content : html;
  return htmlToText(content, { links: false, baseUrl: url });
}
