import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "../../../../tests/support/fixtures.js";
import { answerJson, sendJson, sendText } from "../../../../tests/support/local-http-server.js";
import {
  WIKI_EXTRACT_LOVELACE,
  WIKI_EXTRACT_MISSING,
  WIKI_NOT_FOUND,
  WIKI_SEARCH_LOVELACE,
  WIKI_SEARCH_MERCURY,
  WIKI_SEARCH_NOTHING,
  WIKI_SEARCH_REFUSED,
  WIKI_SUMMARY_DISAMBIGUATION,
  WIKI_SUMMARY_LOVELACE,
} from "../../../../tests/support/payloads/wikipedia.js";
import { type ServerFor, test as serviceTest } from "../../../../tests/support/service-fixtures.js";
import { searchArticles } from "./wikipedia.js";

const test = serviceTest.extend<{ wikipedia: ServerFor }>({
  wikipedia: async ({ withServer }, use) => use((handler, env) => withServer("MARVIN_WIKIPEDIA_URL", handler, env)),
});

const query = (url: string) => Object.fromEntries(new URL(url, "http://fixture").searchParams);

describe("wiki_search", () => {
  test("lists titles with plain-text snippets, word counts and article links", async ({ wikipedia }) => {
    const { server, harness } = await wikipedia(answerJson(WIKI_SEARCH_LOVELACE));
    const text = await harness.ok("wiki_search", { query: "ada lovelace", max_results: 3 });
    expect(text).toBe(
      [
        "Wikipedia (en) results for 'ada lovelace' (1,287 matches):",
        "1. Ada Lovelace (9,412 words)",
        "   Augusta Ada King, Countess of Lovelace (née Byron; 10 December 1815 – 27 November 1852) was an English " +
          "mathematician & writer",
        `   ${server.origin}/wiki/Ada_Lovelace`,
        "2. Ada Lovelace Day (812 words)",
        "   Ada Lovelace Day is an international celebration of the achievements of women in science, technology, " +
          "engineering and maths",
        `   ${server.origin}/wiki/Ada_Lovelace_Day`,
        "3. Analytical engine (4,530 words)",
        `   Babbage's analytical engine "weaves algebraic patterns", wrote Ada Lovelace`,
        `   ${server.origin}/wiki/Analytical_engine`,
      ].join("\n"),
    );
    expect(server.requests[0]!.url).toMatch(/^\/w\/api\.php\?/);
    expect(query(server.requests[0]!.url)).toMatchObject({
      action: "query",
      list: "search",
      srsearch: "ada lovelace",
      srlimit: "3",
      format: "json",
      formatversion: "2",
    });
  });

  test("says nothing was found and passes on Wikipedia's suggestion", async ({ wikipedia }) => {
    const { harness } = await wikipedia(answerJson(WIKI_SEARCH_NOTHING));
    expect(await harness.ok("wiki_search", { query: "ada lovelase" })).toBe(
      "No Wikipedia (en) article matches 'ada lovelase'. Did you mean 'ada lovelace'?",
    );
  });

  test("reports an API error that arrives inside an HTTP 200 answer", async ({ wikipedia }) => {
    const { harness } = await wikipedia(answerJson(WIKI_SEARCH_REFUSED));
    expect(await harness.failure("wiki_search", { query: "x" })).toBe(
      'Error in wiki_search: Wikipedia refused the request: The "srsearch" parameter must be set. (nosrsearch). ' +
        "Rephrase the query or title.",
    );
  });

  test("hands on a server error, naming Wikipedia", async ({ wikipedia }) => {
    const { harness } = await wikipedia((_request, response) =>
      sendText(response, "<h1>Wikimedia Error</h1>", 503, { "retry-after": "60" }),
    );
    expect(await harness.failure("wiki_search", { query: "x" })).toMatch(
      /^Error in wiki_search: Wikipedia answered HTTP 503 \(Service Unavailable\) — try again in/,
    );
  });

  test("refuses a body that is not the API's JSON", async ({ wikipedia }) => {
    const { harness } = await wikipedia((_request, response) =>
      sendText(response, "<!DOCTYPE html><title>Wikipedia</title>"),
    );
    expect(await harness.failure("wiki_search", { query: "x" })).toMatch(
      /^Error in wiki_search: Wikipedia sent an answer Marvin does not understand: it sent a web page where JSON/,
    );
  });

  test("gives up on a server that does not answer in time", async ({ httpServers }) => {
    const server = await httpServers.start(() => undefined);
    const context = { env: { MARVIN_WIKIPEDIA_URL: server.origin }, signal: new AbortController().signal };
    await expect(searchArticles(context, "en", "x", 5, { timeoutMs: 200 })).rejects.toThrow(
      "Wikipedia took longer than 0.2 s to answer — try again in a minute, or ask for less.",
    );
  });

  test("uses the language edition's own site when MARVIN_WIKIPEDIA_URL is unset", async ({ httpServers }) => {
    const server = await httpServers.start(() => undefined);
    const context = { env: {}, signal: AbortSignal.abort() };
    await expect(searchArticles(context, "de", "x", 5)).rejects.toThrow(/^The request to Wikipedia was cancelled\.$/);
    expect(server.connections).toBe(0);
  });
});

describe("wiki_summary", () => {
  test("gives the description, link and introduction", async ({ wikipedia }) => {
    const { server, harness } = await wikipedia(answerJson(WIKI_SUMMARY_LOVELACE));
    expect(await harness.ok("wiki_summary", { title: "Ada Lovelace" })).toBe(
      "Ada Lovelace — English mathematician (1815–1852)\nhttps://en.wikipedia.org/wiki/Ada_Lovelace\n\n" +
        "Augusta Ada King, Countess of Lovelace was an English mathematician and writer chiefly known for her " +
        "work on Charles Babbage's proposed mechanical general-purpose computer, the Analytical Engine.",
    );
    expect(server.requests[0]!.url).toBe("/api/rest_v1/page/summary/Ada_Lovelace");
  });

  test("lists the articles a disambiguation page may mean", async ({ wikipedia }) => {
    const { harness } = await wikipedia((request, response) =>
      sendJson(response, request.url.startsWith("/api/") ? WIKI_SUMMARY_DISAMBIGUATION : WIKI_SEARCH_MERCURY),
    );
    const text = await harness.ok("wiki_summary", { title: "Mercury" });
    expect(text).toMatch(/^'Mercury' is a disambiguation page \(https:\/\/en\.wikipedia\.org\/wiki\/Mercury\)/);
    expect(text).toContain("Articles it may mean:\n1. Mercury (planet) (14,120 words)");
    expect(text).toContain("2. Mercury (element) (9,805 words)");
    expect(text).toMatch(/Ask wiki_summary for the article meant\.$/);
  });

  test("says there is no such article (REST 404) and offers similar titles", async ({ wikipedia }) => {
    const { server, harness } = await wikipedia((request, response) =>
      request.url.startsWith("/api/")
        ? sendJson(response, WIKI_NOT_FOUND, 404)
        : sendJson(response, WIKI_SEARCH_NOTHING),
    );
    expect(await harness.ok("wiki_summary", { title: "Xyzzy Plugh" })).toBe(
      "Wikipedia (en) has no article called 'Xyzzy Plugh'. A search for it finds nothing either.",
    );
    expect(server.requests[0]!.url).toBe("/api/rest_v1/page/summary/Xyzzy_Plugh");
  });

  test("encodes a title with a slash as one path segment", async ({ wikipedia }) => {
    const { server, harness } = await wikipedia((_request, response) =>
      sendJson(response, { ...WIKI_SUMMARY_LOVELACE, title: "AC/DC", description: "Australian rock band" }),
    );
    expect(await harness.ok("wiki_summary", { title: "AC/DC" })).toMatch(/^AC\/DC — Australian rock band/);
    expect(server.requests[0]!.url).toBe("/api/rest_v1/page/summary/AC%2FDC");
  });

  test("refuses a summary without the expected fields", async ({ wikipedia }) => {
    const { harness } = await wikipedia((_request, response) => sendJson(response, { items: [] }));
    expect(await harness.failure("wiki_summary", { title: "Ada Lovelace" })).toMatch(
      /^Error in wiki_summary: Wikipedia sent an answer Marvin does not understand: type: /,
    );
  });
});

describe("wiki_full and wiki_grep", () => {
  test("saves the article to ~/Downloads/wikipedia and returns where and how big, not the text", async ({
    home,
    wikipedia,
  }) => {
    const { server, harness } = await wikipedia(answerJson(WIKI_EXTRACT_LOVELACE));
    const text = await harness.ok("wiki_full", { title: "ada lovelace" });
    const path = join(home, "Downloads", "wikipedia", "en", "Ada_Lovelace.txt");
    expect(text).toMatch(
      new RegExp(`^Saved the Wikipedia article 'Ada Lovelace' \\(asked for as 'ada lovelace'\\) to ${path}: `),
    );
    expect(text).toMatch(/: \d+(\.\d)? KB, 18 lines, \d+ words\./);
    expect(text).toContain("Sections: Biography; Legacy.");
    expect(text).not.toContain("Bernoulli");
    const saved = await readFile(path, "utf8");
    expect(saved).toMatch(/^Ada Lovelace\nhttp:\/\/127\.0\.0\.1:\d+\/wiki\/Ada_Lovelace\nFrom Wikipedia on /);
    expect(saved).toContain("=== First Computer Program ===\nIn 1842–43 Ada translated");
    expect(saved).not.toMatch(/\n{3}/);
    expect(query(server.requests[0]!.url)).toMatchObject({
      prop: "extracts",
      explaintext: "1",
      redirects: "1",
      titles: "ada lovelace",
    });

    const found = await harness.ok("wiki_grep", { title: "Ada Lovelace", pattern: "bernoulli" });
    expect(found).toBe(
      [
        "1 line of 'Ada Lovelace' match 'bernoulli':",
        '1. Line 14 (section "First Computer Program"):',
        "   | === First Computer Program ===",
        "   > …cle by the Italian military engineer Luigi Menabrea about the Analytical Engine, supplementing it " +
          "with seven long notes, labelled A to G. " +
          "Note G describes an algorithm for the engine to compute Bernoulli numbers; it is considered the first " +
          "published algorithm ever specifically tailored for implementation on a computer.",
        "   | == Legacy ==",
      ].join("\n"),
    );
  });

  test("wiki_grep takes regular expressions, falls back to plain text, and says when nothing matches", async ({
    wikipedia,
  }) => {
    const { harness } = await wikipedia(answerJson(WIKI_EXTRACT_LOVELACE));
    await harness.ok("wiki_full", { title: "Ada Lovelace" });
    // Whole four-digit years: the saved page's address carries the fixture server's port, which may hold "18xx".
    const years = await harness.ok("wiki_grep", {
      title: "ada lovelace",
      pattern: "\\b18[0-9]{2}\\b",
      context_lines: 0,
    });
    expect(years).toMatch(
      /^2 lines of 'Ada Lovelace' match '\\b18\[0-9\]\{2\}\\b':\n1\. Line 5:\n {3}> Augusta Ada King/,
    );
    expect(await harness.ok("wiki_grep", { title: "Ada Lovelace", pattern: "(née Byron" })).toMatch(
      /^1 line of 'Ada Lovelace' match '\(née Byron':\n1\. Line 5:\n {3}\| From Wikipedia on /,
    );
    expect(await harness.ok("wiki_grep", { title: "Ada Lovelace", pattern: "quantum" })).toBe(
      "No line of the saved article 'Ada Lovelace' matches 'quantum'.",
    );
  });

  test("wiki_grep names the saved articles when the title was never saved", async ({ home, wikipedia }) => {
    const { harness } = await wikipedia(answerJson(WIKI_EXTRACT_LOVELACE));
    await harness.ok("wiki_full", { title: "Ada Lovelace" });
    const folder = join(home, "Downloads", "wikipedia", "en");
    expect(await harness.failure("wiki_grep", { title: "Charles Babbage", pattern: "engine" })).toBe(
      `Error in wiki_grep: No saved Wikipedia article 'Charles Babbage' (en) in ${folder}. Save it first with ` +
        "wiki_full. Saved (en): Ada Lovelace.",
    );
  });

  test("a title never names a file outside the saved-articles folder", async ({ home, wikipedia }) => {
    const secret = join(home, "secret.txt");
    await writeFile(secret, "password = hunter2\n");
    const { harness } = await wikipedia(answerJson(WIKI_EXTRACT_LOVELACE));
    const failure = await harness.failure("wiki_grep", { title: "../../../secret", pattern: "password" });
    expect(failure).toMatch(/^Error in wiki_grep: No saved Wikipedia article '..\/..\/..\/secret' \(en\)/);
    expect(failure).not.toContain("hunter2");
    const folder = join(home, "Downloads", "wikipedia", "en");
    await mkdir(folder, { recursive: true });
    await symlink(secret, join(folder, "Leak.txt"));
    expect(await harness.failure("wiki_grep", { title: "Leak", pattern: "password" })).toMatch(
      /^Error in wiki_grep: Cannot access en\/Leak\.txt: it is a symbolic link .* that points outside the saved/,
    );
  });

  test("wiki_full does not write through a link that leads out of the folder", async ({ home, wikipedia }) => {
    const outside = join(home, "outside.txt");
    await writeFile(outside, "keep me\n");
    const folder = join(home, "Downloads", "wikipedia", "en");
    await mkdir(folder, { recursive: true });
    await symlink(outside, join(folder, "Ada_Lovelace.txt"));
    const { harness } = await wikipedia(answerJson(WIKI_EXTRACT_LOVELACE));
    expect(await harness.failure("wiki_full", { title: "Ada Lovelace" })).toMatch(/points outside the saved/);
    expect(await readFile(outside, "utf8")).toBe("keep me\n");
  });

  test("wiki_full says when the article does not exist and writes nothing", async ({ wikipedia }) => {
    const { harness } = await wikipedia((request, response) =>
      sendJson(response, query(request.url).list === "search" ? WIKI_SEARCH_NOTHING : WIKI_EXTRACT_MISSING),
    );
    expect(await harness.ok("wiki_full", { title: "Xyzzy Plugh" })).toBe(
      "Wikipedia (en) has no article called 'Xyzzy Plugh'. A search for it finds nothing either.",
    );
  });

  test("wiki_full refuses a malformed extract answer", async ({ wikipedia }) => {
    const { harness } = await wikipedia((_request, response) => sendJson(response, { query: {} }));
    expect(await harness.failure("wiki_full", { title: "Ada Lovelace" })).toMatch(
      /^Error in wiki_full: Wikipedia sent an answer Marvin does not understand: query\.pages: /,
    );
  });
});
