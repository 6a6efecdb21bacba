import type { BrowserContext, Page } from "playwright-core";
import { z } from "zod";
import { toolChildEnv } from "../../../../shared/child-env.js";
import { errorMessage } from "../../../../shared/error-message.js";
import { withScratchDir } from "../../../../shared/scratch-dir.js";
import { defineTool, type ToolContext, ToolError } from "../../../kit/define-tool.js";
import type { PageLink } from "../browse/page-links.js";
import { formatPage } from "../page-report.js";
import { chromiumPath } from "./chromium-path.js";
import { routeThroughClient } from "./guarded-routes.js";

const NAVIGATION_TIMEOUT_MS = 30_000;
/** How long to wait for the page's own requests to settle after it loaded. */
const SETTLE_TIMEOUT_MS = 5_000;

/** Headless as root (no sandbox), with everything that talks to Google on its own turned off. */
const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
  "--dns-prefetch-disable",
  // Every request is answered through Marvin's client (guarded-routes.ts). Anything the browser would still
  // send on its own (a speculative preconnect) goes to a proxy whose name never resolves, so it reaches nothing.
  "--proxy-server=http://marvin-no-direct-network.invalid:9",
  "--host-resolver-rules=MAP * ~NOTFOUND",
  // WebRTC would send UDP (STUN, TURN, to peers) straight to addresses the page names: only through the proxy,
  // so never.
  "--webrtc-ip-handling-policy=disable_non_proxied_udp",
];

/** Runs in every frame before the page's own scripts: the page finds no WebRTC to start at all. */
const NO_WEBRTC = "delete globalThis.RTCPeerConnection; delete globalThis.webkitRTCPeerConnection;";

type Extract = "text" | "html" | "links";

async function openBrowser(context: ToolContext, profileDir: string): Promise<BrowserContext> {
  const executablePath = await chromiumPath(context.env);
  const { chromium } = await import("playwright-core");
  try {
    return await chromium.launchPersistentContext(profileDir, {
      executablePath,
      headless: true,
      args: CHROMIUM_FLAGS,
      env: toolChildEnv(context.env),
      serviceWorkers: "block",
      timeout: NAVIGATION_TIMEOUT_MS,
    });
  } catch (error) {
    const first = errorMessage(error).split("\n")[0];
    throw new ToolError(`Chromium (${executablePath}) did not start: ${first}`);
  }
}

async function pageLinks(page: Page, selector: string): Promise<PageLink[]> {
  const scope = selector ? `:is(${selector}) a[href]` : "a[href]";
  const raw = await page.$$eval(scope, (anchors) =>
    anchors.map((anchor) => {
      // Runs in the page, where an anchor's href is already resolved against the document.
      const { href, textContent } = anchor as unknown as { href: string; textContent: string | null };
      return { text: (textContent ?? "").replace(/\s+/g, " ").trim(), url: href };
    }),
  );
  const seen = new Set<string>();
  return raw.filter((link) => {
    if (!/^https?:/.test(link.url) || seen.has(link.url)) return false;
    seen.add(link.url);
    link.text ||= "(no text)";
    return true;
  });
}

async function selectedContent(page: Page, selector: string, extract: Extract): Promise<string> {
  if (extract === "html" && !selector) return page.content();
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText is the rendered text a reader sees.
  if (!selector) return page.locator("body").innerText();
  let parts: string[];
  try {
    const matches = page.locator(selector);
    parts =
      extract === "html"
        ? await matches.evaluateAll((elements) =>
            elements.map((element) => (element as unknown as { outerHTML: string }).outerHTML),
          )
        : await matches.allInnerTexts();
  } catch (error) {
    throw new ToolError(`The CSS selector '${selector}' could not be used: ${errorMessage(error).split("\n")[0]}`);
  }
  if (parts.length === 0) throw new ToolError(`Nothing on the page matches the CSS selector '${selector}'.`);
  return parts.join("\n\n");
}

async function visit(page: Page, url: string, refusals: Map<string, Error>): Promise<void> {
  let status: number | undefined;
  try {
    status = (await page.goto(url, { waitUntil: "load", timeout: NAVIGATION_TIMEOUT_MS }))?.status();
  } catch (error) {
    const refused = refusals.get(url) ?? refusals.get(new URL(url).href);
    if (refused) throw refused;
    throw new ToolError(`Chromium could not open ${url}: ${errorMessage(error).split("\n")[0]}`);
  }
  if (status !== undefined && status >= 400) {
    throw new ToolError(`${new URL(url).host} answered HTTP ${status} for ${url}; check the address.`);
  }
  await page.waitForLoadState("networkidle", { timeout: SETTLE_TIMEOUT_MS }).catch(() => undefined);
}

export const scrapePage = defineTool({
  name: "scrape_page",
  description:
    "Open a page in a headless Chromium, run its JavaScript, and return its text, HTML or links (optionally only " +
    "what a CSS selector matches). For pages that browse_web shows empty or as 'Loading…'.",
  parameters: z.object({
    url: z.string().trim().min(1).describe("http(s) address of the page"),
    extract: z.enum(["text", "html", "links"]).default("text").describe("What to return"),
    css_selector: z.string().default("").describe('Only what this matches, e.g. "main", ".price"; empty = whole page'),
    max_length: z.number().int().min(200).max(100_000).default(4000).describe("Most characters of text or HTML"),
  }),
  effect: "read",
  timeoutMs: 90_000,
  handler: async ({ url, extract, css_selector, max_length }, context) => {
    let address: string;
    try {
      address = new URL(url).href;
    } catch {
      throw new ToolError(`'${url}' is not a web address. Give a full URL such as https://example.org/page.`);
    }
    if (!/^https?:$/.test(new URL(address).protocol))
      throw new ToolError(`scrape_page opens only http(s) pages, not ${url}.`);
    return withScratchDir("marvin-chromium-", async (profileDir) => {
      let browser: BrowserContext | undefined;
      try {
        browser = await openBrowser(context, profileDir);
        await browser.addInitScript(NO_WEBRTC);
        const refusals = await routeThroughClient(browser, context);
        const page = browser.pages()[0] ?? (await browser.newPage());
        await visit(page, address, refusals);
        const selector = css_selector.trim();
        const title = await page.title();
        const finalUrl = page.url();
        const links = extract === "html" ? [] : await pageLinks(page, selector);
        const text = extract === "links" ? "" : await selectedContent(page, selector, extract);
        const only = selector ? `; only '${selector}'` : "";
        const renderedBy = `Chromium, JavaScript run${only}${extract === "html" ? "; HTML" : ""}`;
        return formatPage({ title, url: finalUrl, renderedBy, text, maxLength: max_length, links });
      } finally {
        await browser?.close().catch(() => undefined);
      }
    });
  },
});
