import { describe, expect, test } from "../../../../tests/support/fixtures.js";
import { type LocalHttpServers, sendText } from "../../../../tests/support/local-http-server.js";
import {
  DUCKDUCKGO_CHALLENGE_PAGE,
  DUCKDUCKGO_NO_RESULTS_PAGE,
  DUCKDUCKGO_PYTHON_PAGE,
} from "../../../../tests/support/payloads/duckduckgo.js";
import { searchDuckDuckGo } from "./index.js";

async function duckDuckGoServing(httpServers: LocalHttpServers, page: string, status = 200) {
  const server = await httpServers.start((_request, response) => sendText(response, page, status));
  const context = { env: { MARVIN_DDG_URL: server.origin }, signal: new AbortController().signal };
  return { server, context };
}

describe("searchDuckDuckGo", () => {
  test("reads titles, real target URLs and snippets, skipping ads and repeats", async ({ httpServers }) => {
    const { server, context } = await duckDuckGoServing(httpServers, DUCKDUCKGO_PYTHON_PAGE);
    const results = await searchDuckDuckGo(context, "python release", { limit: 5, timeFilter: "w" });
    expect(results).toEqual([
      {
        title: "Python Release Python 3.14.0 | Python.org",
        url: "https://www.python.org/downloads/release/python-3140/",
        snippet:
          "Python 3.14.0 is the newest major release of the Python programming language, and it contains many " +
          "new features & optimizations compared to Python 3.13.",
      },
      {
        title: "What's new in Python 3.14 — Python 3.14.0 documentation",
        url: "https://docs.python.org/3/whatsnew/3.14.html?highlight=t-strings&lang=en",
        snippet:
          "This article explains the new features in Python 3.14, compared to 3.13. Python 3.14 was released on " +
          "7 October 2025.",
      },
      {
        title: "History of Python - Wikipedia",
        url: "https://en.wikipedia.org/wiki/History_of_Python",
        snippet:
          "The programming language Python was conceived in the late 1980s, and its implementation was started " +
          "in December 1989 by Guido van Rossum at CWI in the Netherlands.",
      },
    ]);
    expect(server.requests[0]!.url).toBe("/html/?q=python%20release&df=w");
  });

  test("stops at the limit", async ({ httpServers }) => {
    const { context } = await duckDuckGoServing(httpServers, DUCKDUCKGO_PYTHON_PAGE);
    expect(await searchDuckDuckGo(context, "python release", { limit: 1 })).toHaveLength(1);
  });

  test("finds nothing on DuckDuckGo's no-results page", async ({ httpServers }) => {
    const { context } = await duckDuckGoServing(httpServers, DUCKDUCKGO_NO_RESULTS_PAGE);
    expect(await searchDuckDuckGo(context, "xyzzyplughqwertz", { limit: 5 })).toEqual([]);
  });

  test("says what to do when DuckDuckGo answers with its bot check", async ({ httpServers }) => {
    const { context } = await duckDuckGoServing(httpServers, DUCKDUCKGO_CHALLENGE_PAGE, 202);
    await expect(searchDuckDuckGo(context, "python", { limit: 5 })).rejects.toThrow(
      /^DuckDuckGo answered with a bot check .* Wait a minute and try again\.$/,
    );
  });

  test("names DuckDuckGo when it fails", async ({ httpServers }) => {
    const { context } = await duckDuckGoServing(httpServers, "<html>Service Unavailable</html>", 503);
    await expect(searchDuckDuckGo(context, "python", { limit: 5 })).rejects.toThrow(/^DuckDuckGo answered HTTP 503/);
  });
});
