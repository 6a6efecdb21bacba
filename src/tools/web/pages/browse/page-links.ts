import { parseHtml } from "../../../kit/html/index.js";

export interface PageLink {
  text: string;
  url: string;
}

/** The page's title and its http(s) links (each address once, in page order, resolved against <base> or the page). */
export async function titleAndLinks(html: string, pageUrl: string): Promise<{ title: string; links: PageLink[] }> {
  const document = await parseHtml(html);
  const title = (document.querySelector("title")?.textContent ?? "").replace(/\s+/g, " ").trim();
  let base = pageUrl;
  try {
    base = new URL(document.querySelector("base[href]")?.getAttribute("href") ?? "", pageUrl).href;
  } catch {
    // a broken <base> is ignored, as browsers do
  }
  const page = new URL(pageUrl);
  const seen = new Set<string>();
  const links: PageLink[] = [];
  for (const anchor of document.querySelectorAll("a[href]")) {
    let target: URL;
    try {
      target = new URL(anchor.getAttribute("href")!, base);
    } catch {
      continue;
    }
    if (target.protocol !== "http:" && target.protocol !== "https:") continue;
    target.hash = "";
    if (target.href === `${page.origin}${page.pathname}${page.search}` || seen.has(target.href)) continue;
    seen.add(target.href);
    const label = anchor.textContent?.replace(/\s+/g, " ").trim() || anchor.getAttribute("title") || "";
    links.push({ text: label || "(no text)", url: target.href });
  }
  return { title, links };
}
