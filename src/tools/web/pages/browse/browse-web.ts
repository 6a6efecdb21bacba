import { z } from "zod";
import { defineTool } from "../../../kit/define-tool.js";
import { formatPage } from "../page-report.js";
import { fetchPage, pageText } from "./fetch-page.js";
import { lynxDump } from "./lynx.js";
import { titleAndLinks } from "./page-links.js";
import { mainContentText } from "./readable.js";

export const browseWeb = defineTool({
  name: "browse_web",
  description:
    "Read a web page as text (no JavaScript; use scrape_page for pages that need it), with its links listed " +
    "after the text. max_length limits the text only.",
  parameters: z.object({
    url: z.string().trim().min(1).describe("http(s) address of the page"),
    max_length: z.number().int().min(200).max(100_000).default(4000).describe("Most characters of page text"),
  }),
  effect: "read",
  timeoutMs: 60_000,
  handler: async ({ url, max_length }, context) => {
    const page = await fetchPage(context, url, "browse_web");
    const source = pageText(page);
    if (page.kind === "text") {
      return formatPage({
        title: "",
        url: page.url,
        renderedBy: "plain text",
        text: source,
        maxLength: max_length,
        links: [],
      });
    }
    const { title, links } = await titleAndLinks(source, page.url);
    const dumped = await lynxDump(page.bytes, page.charset, context.env, context.signal);
    const text = dumped ?? (await mainContentText(source, page.url));
    const renderedBy = dumped === undefined ? "main-content extraction; lynx is not installed" : "lynx";
    return formatPage({ title, url: page.url, renderedBy, text, maxLength: max_length, links });
  },
});
