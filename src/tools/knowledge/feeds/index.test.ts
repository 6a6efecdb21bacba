import { describe, expect, test } from "../../../../tests/support/fixtures.js";
import type { Handler, LocalHttpServers } from "../../../../tests/support/local-http-server.js";
import { sendText } from "../../../../tests/support/local-http-server.js";
import { ATOM_RELEASES, RDF_SLASH, RSS_EMPTY, RSS_NEWS } from "../../../../tests/support/payloads/feeds.js";
import type { ToolHarnessPool } from "../../../../tests/support/tool-harness.js";
import { fetchFeed } from "./feed.js";

interface Setup {
  home: string;
  harnesses: ToolHarnessPool;
  httpServers: LocalHttpServers;
}

const xml =
  (body: string, type = "application/rss+xml; charset=UTF-8"): Handler =>
  (_request, response) =>
    sendText(response, body, 200, { "content-type": type });

/** A feed server on 127.0.0.1; the model's URLs may reach it only because private addresses are allowed here. */
async function feedServer({ home, harnesses, httpServers }: Setup, handler: Handler, allowPrivate = true) {
  const server = await httpServers.start(handler);
  const env = allowPrivate ? { MARVIN_ALLOW_PRIVATE_URLS: "1" } : {};
  const harness = await harnesses.open({ home, env });
  return { server, harness, url: `${server.origin}/feed/` };
}

describe("read_rss", () => {
  test("reads RSS 2.0 items: decoded titles, dates, links and summaries without HTML", async ({
    home,
    harnesses,
    httpServers,
  }) => {
    const { server, harness, url } = await feedServer({ home, harnesses, httpServers }, xml(RSS_NEWS));
    expect(await harness.ok("read_rss", { url, max_items: 2 })).toBe(
      [
        "RSS feed Example Science & Tech (https://news.example.org/), 2 of 3 items:",
        "1. Webb telescope spots ‘impossible’ early galaxy (2026-11-24 09:30 UTC)",
        "   https://news.example.org/2026/11/24/webb-early-galaxy/",
        "   Astronomers found a galaxy that formed just 290 million years after the Big Bang … Read more",
        "2. Rust 1.95 released (2026-11-23 18:02 UTC)",
        "   https://news.example.org/2026/11/23/rust-1-95/",
        "   The release brings async closures & faster builds.",
      ].join("\n"),
    );
    expect(server.requests[0]!.url).toBe("/feed/");
    expect(server.requests[0]!.headers.accept).toMatch(/^application\/rss\+xml, application\/atom\+xml/);
    const all = await harness.ok("read_rss", { url });
    expect(all).toMatch(
      /3 items:[\s\S]*\n3\. Weekly links \(2026-11-22 08:00 UTC\)\n {3}https:\/\/news\.example\.org\/weekly\/47$/,
    );
  });

  test("reads Atom entries, taking the HTML content when there is no summary", async ({
    home,
    harnesses,
    httpServers,
  }) => {
    const { harness, url } = await feedServer(
      { home, harnesses, httpServers },
      xml(ATOM_RELEASES, "application/atom+xml; charset=utf-8"),
    );
    expect(await harness.ok("read_rss", { url })).toBe(
      [
        "Atom feed Release notes from node (https://github.com/nodejs/node/releases), 1 items:",
        "1. 2026-11-20, Version 24.12.0 'Krypton' (LTS), @aduh95 (2026-11-20 16:41 UTC)",
        "   https://github.com/nodejs/node/releases/tag/v24.12.0",
        "   Notable Changes * [0a1b2c3] - (SEMVER-MINOR) sqlite: add backup API",
      ].join("\n"),
    );
  });

  test("reads RSS 1.0 (RDF) items with dc:date and escaped HTML", async ({ home, harnesses, httpServers }) => {
    const { harness, url } = await feedServer({ home, harnesses, httpServers }, xml(RDF_SLASH, "application/rdf+xml"));
    expect(await harness.ok("read_rss", { url })).toBe(
      [
        "RDF feed Slash Example (https://slash.example.org/), 1 items:",
        "1. Linux 6.18 Released (2026-11-23 18:45 UTC)",
        "   https://slash.example.org/story/26/11/23/1845/linux-6-18",
        "   Linus Torvalds announced Linux 6.18, with a new scheduler & better Rust support.",
      ].join("\n"),
    );
  });

  test("says when a feed has no items", async ({ home, harnesses, httpServers }) => {
    const { harness, url } = await feedServer({ home, harnesses, httpServers }, xml(RSS_EMPTY));
    expect(await harness.ok("read_rss", { url })).toBe(
      "The RSS feed Quiet Blog (https://quiet.example.org/) has no items at the moment.",
    );
  });

  test("explains that a web page is not a feed", async ({ home, harnesses, httpServers }) => {
    const { harness, url } = await feedServer({ home, harnesses, httpServers }, (_request, response) =>
      sendText(response, "<!DOCTYPE html><html><head><title>Blog</title></head><body>Hi</body></html>"),
    );
    expect(await harness.failure("read_rss", { url })).toMatch(
      /^Error in read_rss: http:\/\/127\.0\.0\.1:\d+\/feed\/ is not an RSS, Atom or RDF feed \(127\.0\.0\.1:\d+ sent a web page\)\. Give the feed's own address/,
    );
  });

  test("hands on an HTTP error", async ({ home, harnesses, httpServers }) => {
    const { harness, url } = await feedServer({ home, harnesses, httpServers }, (_request, response) =>
      sendText(response, "<h1>Not Found</h1>", 404),
    );
    expect(await harness.failure("read_rss", { url })).toMatch(
      /^Error in read_rss: 127\.0\.0\.1:\d+ answered HTTP 404 \(Not Found\) — not found; check the name or address/,
    );
  });

  test("refuses feed URLs on private and local addresses unless allowed", async ({ home, harnesses, httpServers }) => {
    const { server, harness, url } = await feedServer({ home, harnesses, httpServers }, xml(RSS_NEWS), false);
    expect(await harness.failure("read_rss", { url })).toMatch(/^Error in read_rss: Marvin does not open /);
    expect(server.connections).toBe(0);
  });

  test("gives up on a server that does not answer in time", async ({ httpServers }) => {
    const server = await httpServers.start(() => undefined);
    const context = { env: { MARVIN_ALLOW_PRIVATE_URLS: "1" }, signal: new AbortController().signal };
    await expect(fetchFeed(context, `${server.origin}/feed`, { timeoutMs: 200 })).rejects.toThrow(
      /^127\.0\.0\.1:\d+ took longer than 0\.2 s to answer/,
    );
  });
});
