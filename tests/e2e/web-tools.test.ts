import { describe, expect, test } from "../support/fixtures.js";
import { sendText } from "../support/local-http-server.js";
import { DUCKDUCKGO_PYTHON_PAGE } from "../support/payloads/duckduckgo.js";
import { ARTICLE_PAGE, SCRIPT_RENDERED_PAGE } from "../support/payloads/web.js";
import { runMarvin, serverEnv } from "../support/run-marvin.js";

describe("web tools in the built CLI", () => {
  test("searches the web, reads the page found, and hands its facts to the model", async ({
    home,
    llm,
    httpServers,
  }) => {
    const site = await httpServers.start((_request, response) => sendText(response, ARTICLE_PAGE));
    const article = `${site.origin}/rivers/aare-august`;
    // DuckDuckGo's page, its third result leading (through a /l/?uddg= redirect) to the local article.
    const results = DUCKDUCKGO_PYTHON_PAGE.replaceAll(
      encodeURIComponent("https://en.wikipedia.org/wiki/History_of_Python"),
      encodeURIComponent(article),
    );
    const duckDuckGo = await httpServers.start((_request, response) => sendText(response, results));
    const server = await llm([
      { toolCalls: [{ name: "web_search", arguments: { query: "Aare temperature August", max_results: 3 } }] },
      { toolCalls: [{ name: "browse_web", arguments: { url: article, max_length: 2000 } }] },
      { text: "The Aare peaked at 21.4 °C on 9 August." },
    ]);
    const env = serverEnv(server.url, home, { MARVIN_DDG_URL: duckDuckGo.origin, MARVIN_ALLOW_PRIVATE_URLS: "1" });
    const prompt = "How warm did the Aare get this August?";
    const run = await runMarvin(["--non-interactive", "--prompt", prompt], { env, cwd: home });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("  🔧 web_search\n  🔧 browse_web\nThe Aare peaked at 21.4 °C on 9 August.\n");
    const searchResult = server.requests[1]!.body.messages.at(-1)!;
    expect(searchResult).toMatchObject({ role: "tool" });
    expect(searchResult.content).toContain(`3. History of Python - Wikipedia\n   ${article}`);
    const pageResult = server.requests[2]!.body.messages.at(-1)!;
    expect(pageResult.content).toMatch(/^The Aare in August \| Bern Rivers Journal\n/);
    expect(pageResult.content).toMatch(/peaked at 21\.4 °C\s+on 9 August/);
    expect(site.requests).toHaveLength(1);
  });

  test("renders a JavaScript page with scrape_page (playwright-core loaded from node_modules)", async ({
    home,
    llm,
    httpServers,
  }) => {
    const site = await httpServers.start((_request, response) => sendText(response, SCRIPT_RENDERED_PAGE));
    const server = await llm([
      { toolCalls: [{ name: "scrape_page", arguments: { url: `${site.origin}/board`, css_selector: ".train" } }] },
      { text: "IC 8 to Brig leaves at 14:04 from platform 7." },
    ]);
    const env = serverEnv(server.url, home, { MARVIN_ALLOW_PRIVATE_URLS: "1" });
    const run = await runMarvin(["--non-interactive", "--prompt", "Next train to Brig?"], { env, cwd: home });
    expect(run.code, run.stderr).toBe(0);
    const toolResult = server.requests[1]!.body.messages.at(-1)!;
    expect(toolResult.content).toContain("IC 8 to Brig, platform 7, 14:04");
  });
});
