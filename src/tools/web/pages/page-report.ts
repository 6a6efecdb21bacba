import type { PageLink } from "./browse/page-links.js";

/** Links listed after a page's text; the list is capped on its own, apart from max_length. */
const MAX_LINKS = 40;

interface PageReport {
  title: string;
  url: string;
  /** How the text was made: "lynx", "main content (Readability)"… */
  renderedBy: string;
  text: string;
  maxLength: number;
  links: readonly PageLink[];
}

/** `text` cut to `max` characters, at a line or word end when one is near. */
function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const boundary = Math.max(cut.lastIndexOf("\n"), cut.lastIndexOf(" "));
  return (boundary > max * 0.8 ? cut.slice(0, boundary) : cut).trimEnd();
}

/** Title, address, the text (max_length counts it alone), the links, and a note saying what was cut. */
export function formatPage(report: PageReport): string {
  const text = report.text
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  const shown = cutText(text, report.maxLength);
  const parts = [`${report.title || "(untitled page)"}\n${report.url}\n(read with ${report.renderedBy})`];
  parts.push(shown || "(the page has no text)");
  const links = report.links.slice(0, MAX_LINKS);
  if (links.length) {
    const count = links.length < report.links.length ? ` (first ${links.length} of ${report.links.length})` : "";
    parts.push(`Links${count}:\n${links.map((link, index) => `${index + 1}. ${link.text} — ${link.url}`).join("\n")}`);
  }
  const cuts: string[] = [];
  if (shown.length < text.length) {
    cuts.push(
      `the text was cut at ${shown.length} of ${text.length} characters (ask again with a larger max_length for more)`,
    );
  }
  if (links.length < report.links.length) cuts.push(`${report.links.length - links.length} more links were left out`);
  if (cuts.length) parts.push(`[Note: ${cuts.join("; ")}.]`);
  return parts.join("\n\n");
}
