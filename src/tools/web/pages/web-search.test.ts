import { describe, expect, test } from "../../../../tests/support/fixtures.js";
import { sendText } from "../../../../tests/support/local-http-server.js";
import {
  DUCKDUCKGO_CHALLENGE_PAGE,
  DUCKDUCKGO_NO_RESULTS_PAGE,
  DUCKDUCKGO_PYTHON_PAGE,
} from "../../../../tests/support/payloads/duckduckgo.js";

describe("web_search", () => {
  test("lowers max_results above 20 to 20, saying so", async ({ home, harnesses, httpServers }) => {
    const duckDuckGo = await httpServers.start((_request, response) => sendText(response, DUCKDUCKGO_PYTHON_PAGE));
    const harness = await harnesses.open({ home, env: { MARVIN_DDG_URL: duckDuckGo.origin } });
    const text = await harness.ok("web_search", { query: "python release", max_results: "50" });
    expect(text).toMatch(/^Web results for "python release":\n1\. /);
    expect(text.split("\n").at(-1)).toBe("Note: max_results 50 was lowered to 20, the most web_search returns.");
  });

  test("lists titles, real addresses and snippets, asking for the time filter", async ({
    home,
    harnesses,
    httpServers,
  }) => {
    const duckDuckGo = await httpServers.start((_request, response) => sendText(response, DUCKDUCKGO_PYTHON_PAGE));
    const harness = await harnesses.open({ home, env: { MARVIN_DDG_URL: duckDuckGo.origin } });
    const text = await harness.ok("web_search", { query: "python release", max_results: 2, time_filter: "week" });
    expect(text).toBe(
      [
        'Web results for "python release" (past week):',
        "1. Python Release Python 3.14.0 | Python.org",
        "   https://www.python.org/downloads/release/python-3140/",
        "   Python 3.14.0 is the newest major release of the Python programming language, and it contains many " +
          "new features & optimizations compared to Python 3.13.",
        "2. What's new in Python 3.14 — Python 3.14.0 documentation",
        "   https://docs.python.org/3/whatsnew/3.14.html?highlight=t-strings&lang=en",
        "   This article explains the new features in Python 3.14, compared to 3.13. Python 3.14 was released on " +
          "7 October 2025.",
      ].join("\n"),
    );
    expect(duckDuckGo.requests[0]!.url).toBe("/html/?q=python%20release&df=w");
  });

  test("says when nothing was found", async ({ home, harnesses, httpServers }) => {
    const duckDuckGo = await httpServers.start((_request, response) => sendText(response, DUCKDUCKGO_NO_RESULTS_PAGE));
    const harness = await harnesses.open({ home, env: { MARVIN_DDG_URL: duckDuckGo.origin } });
    expect(await harness.ok("web_search", { query: "xyzzyplughqwertz" })).toBe(
      'DuckDuckGo found nothing for "xyzzyplughqwertz". Try other or fewer words.',
    );
    expect(duckDuckGo.requests[0]!.url).toBe("/html/?q=xyzzyplughqwertz");
  });

  test("hands on DuckDuckGo's server error and its bot check", async ({ home, harnesses, httpServers }) => {
    const broken = await httpServers.start((_request, response) => sendText(response, "<h1>oops</h1>", 503));
    const harness = await harnesses.open({ home, env: { MARVIN_DDG_URL: broken.origin } });
    expect(await harness.failure("web_search", { query: "python" })).toMatch(
      /^Error in web_search: DuckDuckGo answered HTTP 503 \(Service Unavailable\)/,
    );
    const challenge = await httpServers.start((_request, response) =>
      sendText(response, DUCKDUCKGO_CHALLENGE_PAGE, 202),
    );
    const blocked = await harnesses.open({ home, env: { MARVIN_DDG_URL: challenge.origin } });
    expect(await blocked.failure("web_search", { query: "python" })).toContain("DuckDuckGo answered with a bot check");
  });

  test("refuses a time filter it does not know, before asking", async ({ home, harnesses, httpServers }) => {
    const duckDuckGo = await httpServers.start((_request, response) => sendText(response, DUCKDUCKGO_PYTHON_PAGE));
    const harness = await harnesses.open({ home, env: { MARVIN_DDG_URL: duckDuckGo.origin } });
    expect(await harness.failure("web_search", { query: "python", time_filter: "fortnight" })).toContain("time_filter");
    expect(duckDuckGo.requests).toHaveLength(0);
  });
});
