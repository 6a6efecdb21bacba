import { describe, expect, it } from "vitest";
import { htmlToText, inlineText, parseHtml } from "./index.js";

describe("htmlToText", () => {
  it("keeps paragraphs, lists and links, drops scripts and images", async () => {
    const html =
      "<h2>Install</h2><p>Run <code>npm&nbsp;install</code> &amp; wait.</p>" +
      '<ul><li>one</li><li>two</li></ul><img src="x.png"><script>alert(1)</script>' +
      '<p>See <a href="/docs">the docs</a>.</p>';
    expect(await htmlToText(html, { baseUrl: "https://example.org" })).toBe(
      "Install\n\nRun npm\u00a0install & wait.\n\n * one\n * two\n\nSee the docs [https://example.org/docs].",
    );
  });

  it("leaves link targets out when asked", async () => {
    expect(await htmlToText('<p>See <a href="https://a.example/">this</a></p>', { links: false })).toBe("See this");
  });
});

describe("inlineText", () => {
  it("turns a highlighted snippet with entities into one line", async () => {
    const snippet =
      "The official home of the <b>Python</b>\n  Programming Language &#39;3.13&#39; &mdash; " +
      '<span class="searchmatch">fast</span>';
    expect(await inlineText(snippet)).toBe("The official home of the Python Programming Language '3.13' — fast");
  });
});

describe("parseHtml", () => {
  it("answers CSS selectors over the parsed tree", async () => {
    const document = await parseHtml('<div class="r"><a class="t" href="/x">One</a></div><div class="r"></div>');
    const links = [...document.querySelectorAll("div.r a.t")];
    expect(links.map((link) => [link.textContent, link.getAttribute("href")])).toEqual([["One", "/x"]]);
  });
});
