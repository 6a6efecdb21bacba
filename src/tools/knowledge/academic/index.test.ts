import { describe, expect } from "../../../../tests/support/fixtures.js";
import type { Handler } from "../../../../tests/support/local-http-server.js";
import { sendJson, sendText } from "../../../../tests/support/local-http-server.js";
import {
  ARXIV_ERROR,
  ARXIV_NOTHING,
  ARXIV_TRANSFORMER,
  S2_BAD_FIELDS,
  S2_SEARCH_NOTHING,
  S2_SEARCH_TRANSFORMER,
  S2_TOO_MANY_REQUESTS,
} from "../../../../tests/support/payloads/academic.js";
import { type ServerFor, test as serviceTest } from "../../../../tests/support/service-fixtures.js";
import { searchArxiv } from "./arxiv.js";
import { searchPapers } from "./semantic-scholar.js";

const atom =
  (body: string, status = 200): Handler =>
  (_request, response) =>
    sendText(response, body, status, { "content-type": "application/atom+xml; charset=utf-8" });

const query = (url: string) => Object.fromEntries(new URL(url, "http://fixture").searchParams);

const test = serviceTest.extend<{ semanticScholar: ServerFor; arxiv: ServerFor }>({
  semanticScholar: async ({ withServer }, use) =>
    use((handler, env) => withServer("MARVIN_SEMANTIC_SCHOLAR_URL", handler, env)),
  arxiv: async ({ withServer }, use) => use((handler, env) => withServer("MARVIN_ARXIV_URL", handler, env)),
});

describe("search_papers", () => {
  test("lists papers with year, venue, citations, authors, abstract and links", async ({ semanticScholar }) => {
    const { server, harness } = await semanticScholar((_request, response) =>
      sendJson(response, S2_SEARCH_TRANSFORMER),
    );
    const text = await harness.ok("search_papers", { query: "transformer attention", max_results: 2 });
    expect(text).toBe(
      [
        "Semantic Scholar papers for 'transformer attention' (58,204 found):",
        "1. Attention is All you Need (2017, Neural Information Processing Systems) — 151,026 citations",
        "   Ashish Vaswani, Noam M. Shazeer, Niki Parmar, Jakob Uszkoreit, Llion Jones et al. (8 authors)",
        "   The dominant sequence transduction models are based on complex recurrent or convolutional neural " +
          "networks in an encoder-decoder configuration. We propose a new simple network architecture, " +
          "the Transformer.",
        "   https://www.semanticscholar.org/paper/204e3073870fae3d05bcbc2f6a8e263d9b72e776 · arXiv 1706.03762",
        "2. Transformers in Vision: A Survey (2021) — 2,913 citations",
        "   Salman Khan, Muzammal Naseer",
        "   https://www.semanticscholar.org/paper/a8e9c3f1d2b7e4a6c0f9d8e7b6a5c4d3e2f1a0b9 · " +
          "PDF https://arxiv.org/pdf/2101.01169 · DOI 10.1145/3505244",
      ].join("\n"),
    );
    expect(server.requests[0]!.url).toMatch(/^\/graph\/v1\/paper\/search\?/);
    expect(query(server.requests[0]!.url)).toEqual({
      query: "transformer attention",
      limit: "2",
      fields: "title,year,venue,authors,citationCount,abstract,url,openAccessPdf,externalIds",
    });
    expect(server.requests[0]!.headers["x-api-key"]).toBeUndefined();
  });

  test("sends the year range, the open-access filter and the API key when set", async ({ semanticScholar }) => {
    const env = { SEMANTIC_SCHOLAR_API_KEY: "s2-key-123" };
    const { server, harness } = await semanticScholar(
      (_request, response) => sendJson(response, S2_SEARCH_TRANSFORMER),
      env,
    );
    await harness.ok("search_papers", { query: "vision", year_min: 2019, open_access_only: true });
    await harness.ok("search_papers", { query: "vision", year_min: 2015, year_max: 2020 });
    expect(query(server.requests[0]!.url)).toMatchObject({ year: "2019-", openAccessPdf: "" });
    expect(query(server.requests[1]!.url)).toMatchObject({ year: "2015-2020" });
    expect(query(server.requests[1]!.url)).not.toHaveProperty("openAccessPdf");
    expect(server.requests[0]!.headers["x-api-key"]).toBe("s2-key-123");
  });

  test("says so when nothing matches (the answer then has no data)", async ({ semanticScholar }) => {
    const { harness } = await semanticScholar((_request, response) => sendJson(response, S2_SEARCH_NOTHING));
    expect(await harness.ok("search_papers", { query: "xyzzy plugh" })).toBe(
      "Semantic Scholar has no paper matching 'xyzzy plugh' with these filters. Try other or fewer words.",
    );
  });

  test("a 429 without a key suggests SEMANTIC_SCHOLAR_API_KEY", async ({ semanticScholar }) => {
    const { harness } = await semanticScholar((_request, response) => sendJson(response, S2_TOO_MANY_REQUESTS, 429));
    expect(await harness.failure("search_papers", { query: "x" })).toBe(
      "Error in search_papers: Semantic Scholar is limiting how often Marvin may ask (HTTP 429) — try again in a " +
        "minute. Without an API key all anonymous users share one small allowance; set SEMANTIC_SCHOLAR_API_KEY " +
        "(free at https://www.semanticscholar.org/product/api) for a quota of your own.",
    );
  });

  test("hands on a refused request with Semantic Scholar's own words", async ({ semanticScholar }) => {
    const { harness } = await semanticScholar((_request, response) => sendJson(response, S2_BAD_FIELDS, 400));
    expect(await harness.failure("search_papers", { query: "x" })).toBe(
      'Error in search_papers: Semantic Scholar answered HTTP 400 (Bad Request): "Unrecognized or unsupported ' +
        'fields: [bogus]" — it did not accept the request; check the parameters.',
    );
  });

  test("refuses an answer without the paper list's shape", async ({ semanticScholar }) => {
    const { harness } = await semanticScholar((_request, response) => sendJson(response, { data: [{ title: 42 }] }));
    expect(await harness.failure("search_papers", { query: "x" })).toMatch(
      /^Error in search_papers: Semantic Scholar sent an answer Marvin does not understand: total: /,
    );
  });

  test("gives up on a server that does not answer in time", async ({ httpServers }) => {
    const server = await httpServers.start(() => undefined);
    const context = { env: { MARVIN_SEMANTIC_SCHOLAR_URL: server.origin }, signal: new AbortController().signal };
    const search = { query: "x", limit: 5, yearMin: 0, yearMax: 0, openAccessOnly: false };
    await expect(searchPapers(context, search, { timeoutMs: 200 })).rejects.toThrow(
      "Semantic Scholar took longer than 0.2 s to answer",
    );
  });
});

describe("search_arxiv", () => {
  test("reads wrapped titles and abstracts, authors, dates, categories and links", async ({ arxiv }) => {
    const { server, harness } = await arxiv(atom(ARXIV_TRANSFORMER));
    const text = await harness.ok("search_arxiv", { query: "attention transformer", max_results: 2 });
    expect(text).toBe(
      [
        "arXiv preprints for 'attention transformer' (4,211 found, most relevant first):",
        "1. Attention Is All You Need: the Transformer for Sequence Transduction without Recurrence " +
          "(2017-06-12, cs.CL)",
        "   Ashish Vaswani, Noam Shazeer",
        "   The dominant sequence transduction models are based on complex recurrent or convolutional neural " +
          "networks in an encoder-decoder configuration. The best performing models also connect the encoder and " +
          "decoder through an attention mechanism.",
        "   https://arxiv.org/abs/1706.03762v7 · PDF https://arxiv.org/pdf/1706.03762v7",
        "2. An Image is Worth 16x16 Words: Transformers for Image Recognition at Scale (2020-10-22, cs.CV)",
        "   Alexey Dosovitskiy",
        "   While the Transformer architecture has become the de-facto standard for natural language processing " +
          "tasks, its applications to computer vision remain limited.",
        "   https://arxiv.org/abs/2010.11929v2 · PDF https://arxiv.org/pdf/2010.11929v2",
      ].join("\n"),
    );
    expect(server.requests[0]!.url).toMatch(/^\/api\/query\?/);
    expect(query(server.requests[0]!.url)).toEqual({
      search_query: "all:attention AND all:transformer",
      start: "0",
      max_results: "2",
      sortBy: "relevance",
      sortOrder: "descending",
    });
  });

  test("passes arXiv's own query syntax on as written and sorts by date", async ({ arxiv }) => {
    const { server, harness } = await arxiv(atom(ARXIV_TRANSFORMER));
    const text = await harness.ok("search_arxiv", { query: "au:vaswani AND cat:cs.CL", sort_by: "submittedDate" });
    expect(text).toMatch(/^arXiv preprints for 'au:vaswani AND cat:cs\.CL' \(4,211 found, newest first by submit/);
    expect(query(server.requests[0]!.url)).toMatchObject({
      search_query: "au:vaswani AND cat:cs.CL",
      sortBy: "submittedDate",
    });
  });

  test("says so when totalResults is 0", async ({ arxiv }) => {
    const { harness } = await arxiv(atom(ARXIV_NOTHING));
    expect(await harness.ok("search_arxiv", { query: "xyzzyplugh" })).toBe(
      "arXiv has no preprint matching 'xyzzyplugh'. Try other or fewer words.",
    );
  });

  test("reports arXiv's error entry", async ({ arxiv }) => {
    const { harness } = await arxiv(atom(ARXIV_ERROR));
    expect(await harness.failure("search_arxiv", { query: "ti:" })).toBe(
      "Error in search_arxiv: arXiv refused the query: incorrect id format for ti:. Check the query syntax.",
    );
  });

  test("hands on an HTTP error", async ({ arxiv }) => {
    const { harness } = await arxiv(atom(ARXIV_ERROR, 400));
    expect(await harness.failure("search_arxiv", { query: "ti:" })).toBe(
      "Error in search_arxiv: arXiv answered HTTP 400 (Bad Request) — it did not accept the request; check the " +
        "parameters.",
    );
  });

  test("refuses an answer that is not an Atom feed", async ({ arxiv }) => {
    const { server, harness } = await arxiv((_request, response) =>
      sendText(response, "<html><body>Rate exceeded.</body></html>"),
    );
    expect(await harness.failure("search_arxiv", { query: "x" })).toBe(
      "Error in search_arxiv: arXiv sent an answer Marvin does not understand: it is not an Atom feed. Check that " +
        `MARVIN_ARXIV_URL=${server.origin} points at arXiv.`,
    );
  });

  test("gives up on a server that does not answer in time", async ({ httpServers }) => {
    const server = await httpServers.start(() => undefined);
    const context = { env: { MARVIN_ARXIV_URL: server.origin }, signal: new AbortController().signal };
    await expect(searchArxiv(context, "x", 5, "relevance", { timeoutMs: 200 })).rejects.toThrow(
      "arXiv took longer than 0.2 s to answer",
    );
  });
});
