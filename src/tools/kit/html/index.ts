/**
 * HTML made readable for the model, shared by every tool that receives HTML (search snippets, answers,
 * feeds, pages). The libraries load on first use, so Marvin's start does not pay for them.
 */

/** The part of a parsed element the tools use (a DOM subset that linkedom provides). */
export interface HtmlElement {
  readonly textContent: string | null;
  readonly innerHTML: string;
  getAttribute(name: string): string | null;
  querySelector(selector: string): HtmlElement | null;
  querySelectorAll(selector: string): Iterable<HtmlElement>;
}

type HtmlToTextModule = typeof import("html-to-text");
let htmlToTextModule: Promise<HtmlToTextModule> | undefined;

const loadHtmlToText = (): Promise<HtmlToTextModule> => {
  htmlToTextModule ??= import("html-to-text");
  return htmlToTextModule;
};

interface TextOptions {
  /** Keep link targets after their text as "text [url]" (default true). */
  links?: boolean;
  /** Resolves relative link targets. */
  baseUrl?: string;
}

/** Readable text of an HTML document or fragment: paragraphs, lists, headings and tables kept, images dropped. */
export async function htmlToText(html: string, { links = true, baseUrl }: TextOptions = {}): Promise<string> {
  const { convert } = await loadHtmlToText();
  const text = convert(html, {
    wordwrap: false,
    selectors: [
      { selector: "img", format: "skip" },
      { selector: "script", format: "skip" },
      { selector: "style", format: "skip" },
      {
        selector: "a",
        options: { ignoreHref: !links, hideLinkHrefIfSameAsText: true, noAnchorUrl: true, baseUrl },
      },
      { selector: "h1", options: { uppercase: false } },
      { selector: "h2", options: { uppercase: false } },
      { selector: "h3", options: { uppercase: false } },
      { selector: "h4", options: { uppercase: false } },
      { selector: "h5", options: { uppercase: false } },
      { selector: "h6", options: { uppercase: false } },
      { selector: "table", format: "dataTable", options: { uppercaseHeaderCells: false } },
    ],
  });
  return text.replace(/\n{3,}/g, "\n\n").trim();
}

/** One line of plain text from an HTML fragment such as a snippet or a title: tags gone, entities decoded. */
export async function inlineText(fragment: string): Promise<string> {
  return (await htmlToText(fragment, { links: false })).replace(/\s+/g, " ").trim();
}

/** Parses an HTML document into an element tree that answers CSS selectors. */
export async function parseHtml(html: string): Promise<HtmlElement> {
  const { parseHTML } = await import("linkedom");
  return parseHTML(html).document as unknown as HtmlElement;
}
