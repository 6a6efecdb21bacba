import type { ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import { describe, expect } from "../../../../tests/support/fixtures.js";
import { type Handler, sendText } from "../../../../tests/support/local-http-server.js";
import {
  SE_ANSWERS_FLATTEN,
  SE_BAD_PARAMETER,
  SE_NO_ANSWERS,
  SE_QUESTION_FLATTEN,
  SE_SEARCH_FLATTEN,
  SE_SEARCH_NOTHING,
  SE_THROTTLED,
} from "../../../../tests/support/payloads/stack-exchange.js";
import { type ServerFor, test as serviceTest } from "../../../../tests/support/service-fixtures.js";
import { searchQuestions } from "./stack-exchange.js";

/** As the real API does: every body gzipped, whatever the client asked for. */
function sendGzippedJson(response: ServerResponse, body: unknown, status = 200): void {
  const zipped = gzipSync(JSON.stringify(body));
  response.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-encoding": "gzip",
    "content-length": zipped.length,
  });
  response.end(zipped);
}

const query = (url: string) => Object.fromEntries(new URL(url, "http://fixture").searchParams);
const pathOf = (url: string) => new URL(url, "http://fixture").pathname;

/** Answers questions and answers requests by path, as the API would. */
const questionAndAnswers =
  (questions: unknown, answers: unknown): Handler =>
  (request, response) =>
    sendGzippedJson(response, pathOf(request.url).endsWith("/answers") ? answers : questions);

const test = serviceTest.extend<{ stackExchange: ServerFor }>({
  stackExchange: async ({ withServer }, use) =>
    use((handler, env) => withServer("MARVIN_STACKEXCHANGE_URL", handler, env)),
});

describe("stack_search", () => {
  test("lists decoded titles with score, answers, views, date, tags and question_id", async ({ stackExchange }) => {
    const { server, harness } = await stackExchange((_request, response) =>
      sendGzippedJson(response, SE_SEARCH_FLATTEN),
    );
    const text = await harness.ok("stack_search", { query: "flatten list", tagged: "python, list", max_results: 2 });
    expect(text).toBe(
      [
        "stackoverflow questions for 'flatten list' tagged python, list:",
        "1. How do I make a flat list out of a list of lists? [question_id 952914]",
        "   score 5531 · 32 answers, one accepted · 4,189,207 views · asked 2009-06-08 · " +
          "tags: python, list, multidimensional-array, flatten",
        "   https://stackoverflow.com/questions/952914/how-do-i-make-a-flat-list-out-of-a-list-of-lists",
        `2. Why doesn't chain.from_iterable "flatten" strings & bytes? [question_id 77481230]`,
        "   score -1 · 0 answers · 311 views · asked 2023-11-13 · tags: python, itertools",
        "   https://stackoverflow.com/questions/77481230/why-doesn-t-chain-from-iterable-flatten-strings",
      ].join("\n"),
    );
    expect(pathOf(server.requests[0]!.url)).toBe("/2.3/search/advanced");
    expect(query(server.requests[0]!.url)).toEqual({
      q: "flatten list",
      site: "stackoverflow",
      tagged: "python;list",
      sort: "relevance",
      order: "desc",
      pagesize: "2",
    });
    expect(server.requests[0]!.headers["accept-encoding"]).toMatch(/gzip/);
  });

  test("says nothing matched and warns when the daily quota runs low", async ({ stackExchange }) => {
    const { server, harness } = await stackExchange((_request, response) =>
      sendGzippedJson(response, SE_SEARCH_NOTHING),
    );
    expect(await harness.ok("stack_search", { query: "xyzzy", site: "askubuntu", sort: "votes" })).toBe(
      "No askubuntu question matches 'xyzzy'. Try other or fewer words.",
    );
    expect(query(server.requests[0]!.url)).toMatchObject({ site: "askubuntu", sort: "votes" });
  });

  test("hands on the API's error message", async ({ stackExchange }) => {
    const { harness } = await stackExchange((_request, response) => sendGzippedJson(response, SE_THROTTLED, 400));
    expect(await harness.failure("stack_search", { query: "x" })).toBe(
      'Error in stack_search: Stack Exchange answered HTTP 400 (Bad Request): "too many requests from this IP, ' +
        'more requests available in 82216 seconds" — it did not accept the request; check the parameters.',
    );
  });

  test("refuses a body that is not the API's wrapper", async ({ stackExchange }) => {
    const { harness } = await stackExchange((_request, response) =>
      sendText(response, "<html><body>Service Unavailable</body></html>"),
    );
    expect(await harness.failure("stack_search", { query: "x" })).toMatch(
      /^Error in stack_search: Stack Exchange sent an answer Marvin does not understand: it sent a web page/,
    );
  });

  test("refuses a site name that is not one", async ({ stackExchange }) => {
    const { server, harness } = await stackExchange(() => undefined);
    expect(await harness.failure("stack_search", { query: "x", site: "../evil?x=1" })).toMatch(/site/);
    expect(server.requests).toHaveLength(0);
  });

  test("gives up on a server that does not answer in time", async ({ httpServers }) => {
    const server = await httpServers.start(() => undefined);
    const context = { env: { MARVIN_STACKEXCHANGE_URL: server.origin }, signal: new AbortController().signal };
    const search = { query: "x", site: "stackoverflow", tags: [], sort: "relevance" as const, limit: 5 };
    await expect(searchQuestions(context, search, { timeoutMs: 200 })).rejects.toThrow(
      "Stack Exchange took longer than 0.2 s to answer",
    );
  });

  test("sits out a short backoff the API asked for before searching again", async ({ stackExchange }) => {
    const { server, harness } = await stackExchange((_request, response) =>
      sendGzippedJson(response, { ...SE_SEARCH_NOTHING, backoff: 1 }),
    );
    await harness.ok("stack_search", { query: "first" });
    const started = Date.now();
    await harness.ok("stack_search", { query: "second" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(server.requests).toHaveLength(2);
  });
});

describe("stack_answers", () => {
  test("gives the accepted answer first, as text with code kept and links after their words", async ({
    stackExchange,
  }) => {
    const { server, harness } = await stackExchange(questionAndAnswers(SE_QUESTION_FLATTEN, SE_ANSWERS_FLATTEN));
    const text = await harness.ok("stack_answers", { question_id: 952914 });
    expect(text).toBe(
      [
        'Answers to "How do I make a flat list out of a list of lists?" ' +
          "(https://stackoverflow.com/questions/952914/how-do-i-make-a-flat-list-out-of-a-list-of-lists) (2 of 32):",
        "",
        "1. Accepted answer · score 7012 by Alex Martelli (2009-06-08)",
        "A list of lists named xss can be flattened using a nested list comprehension " +
          "[https://docs.python.org/3/tutorial/datastructures.html#list-comprehensions]:",
        "",
        "flat_list = [",
        "    x",
        "    for xs in xss",
        "    for x in xs",
        "]",
        "",
        "It's faster than sum(xss, []) & clearer.",
        "",
        "2. Answer · score 2030 by Boris Verkhovskiy (2009-06-08)",
        "You can use itertools.chain:",
        "",
        "import itertools",
        "merged = list(itertools.chain(*list2d))",
      ].join("\n"),
    );
    const paths = server.requests.map((request) => pathOf(request.url)).sort();
    expect(paths).toEqual(["/2.3/questions/952914", "/2.3/questions/952914/answers"]);
    const answersRequest = server.requests.find((request) => request.url.includes("/answers"))!;
    expect(query(answersRequest.url)).toMatchObject({ site: "stackoverflow", filter: "withbody", sort: "votes" });
  });

  test("says when a question has no answers, or does not exist", async ({ stackExchange }) => {
    const { harness } = await stackExchange((request, response) =>
      sendGzippedJson(
        response,
        request.url.includes("/952914")
          ? request.url.includes("/answers")
            ? SE_NO_ANSWERS
            : SE_QUESTION_FLATTEN
          : SE_NO_ANSWERS,
      ),
    );
    expect(await harness.ok("stack_answers", { question_id: 952914, site: "stackoverflow" })).toBe(
      '"How do I make a flat list out of a list of lists?" ' +
        "(https://stackoverflow.com/questions/952914/how-do-i-make-a-flat-list-out-of-a-list-of-lists) " +
        "has no answers yet.",
    );
    expect(await harness.ok("stack_answers", { question_id: 1, site: "unix" })).toBe(
      "unix has no question 1. Check the id and the site.",
    );
  });

  test("hands on a refused request", async ({ stackExchange }) => {
    const { harness } = await stackExchange((_request, response) => sendGzippedJson(response, SE_BAD_PARAMETER, 400));
    expect(await harness.failure("stack_answers", { question_id: 5 })).toBe(
      'Error in stack_answers: Stack Exchange answered HTTP 400 (Bad Request): "site is required" — it did not ' +
        "accept the request; check the parameters.",
    );
  });

  test("refuses answers without bodies", async ({ stackExchange }) => {
    const withoutBodies = { ...SE_ANSWERS_FLATTEN, items: [{ answer_id: 1, score: 3 }] };
    const { harness } = await stackExchange(questionAndAnswers(SE_QUESTION_FLATTEN, withoutBodies));
    expect(await harness.failure("stack_answers", { question_id: 952914 })).toMatch(
      /^Error in stack_answers: Stack Exchange sent an answer Marvin does not understand: items\.0\./,
    );
  });
});
