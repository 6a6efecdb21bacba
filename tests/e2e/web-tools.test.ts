import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type LlmServer, startLlmServer } from "../support/llm-server.js";
import { LocalHttpServers, sendText } from "../support/local-http-server.js";
import { DUCKDUCKGO_PYTHON_PAGE } from "../support/payloads/duckduckgo.js";
import { ARTICLE_PAGE, SCRIPT_RENDERED_PAGE } from "../support/payloads/web.js";
import { runMarvin, serverEnv, tempDir } from "../support/run-marvin.js";

const services = new LocalHttpServers();
let llm: LlmServer | undefined;
let home: { path: string; cleanup: () => void };
beforeEach(() => {
  home = tempDir("marvin-home-");
});
afterEach(async () => {
  await llm?.close();
  await services.closeAll();
  home.cleanup();
});

describe("web tools in the built CLI", () => {
  it("searches the web, reads the page found, and hands its facts to the model", async () => {
    const site = await services.start((_request, response) => sendText(response, ARTICLE_PAGE));
    const article = `${site.origin}/rivers/aare-august`;
    // DuckDuckGo's page, its third result leading (through a /l/?uddg= redirect) to the local article.
    const results = DUCKDUCKGO_PYTHON_PAGE.replaceAll(
      encodeURIComponent("https://en.wikipedia.org/wiki/History_of_Python"),
      encodeURIComponent(article),
    );
    const duckDuckGo = await services.start((_request, response) => sendText(response, results));
    llm = await startLlmServer([
      { toolCalls: [{ name: "web_search", arguments: { query: "Aare temperature August", max_results: 3 } }] },
      { toolCalls: [{ name: "browse_web", arguments: { url: article, max_length: 2000 } }] },
      { text: "The Aare peaked at 21.4 °C on 9 August." },
    ]);
    const env = serverEnv(llm.url, home.path, { MARVIN_DDG_URL: duckDuckGo.origin, MARVIN_ALLOW_PRIVATE_URLS: "1" });
    const prompt = "How warm did the Aare get this August?";
    const run = await runMarvin(["--non-interactive", "--prompt", prompt], { env, cwd: home.path });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("  🔧 web_search\n  🔧 browse_web\nThe Aare peaked at 21.4 °C on 9 August.\n");
    const searchResult = llm.requests[1]!.body.messages.at(-1)!;
    expect(searchResult).toMatchObject({ role: "tool" });
    expect(searchResult.content).toContain(`3. History of Python - Wikipedia\n   ${article}`);
    const pageResult = llm.requests[2]!.body.messages.at(-1)!;
    expect(pageResult.content).toMatch(/^The Aare in August \| Bern Rivers Journal\n/);
    expect(pageResult.content).toMatch(/peaked at 21\.4 °C\s+on 9 August/);
    expect(site.requests).toHaveLength(1);
  });

  it("renders a JavaScript page with scrape_page (playwright-core loaded from node_modules)", async () => {
    const site = await services.start((_request, response) => sendText(response, SCRIPT_RENDERED_PAGE));
    llm = await startLlmServer([
      { toolCalls: [{ name: "scrape_page", arguments: { url: `${site.origin}/board`, css_selector: ".train" } }] },
      { text: "IC 8 to Brig leaves at 14:04 from platform 7." },
    ]);
    const env = serverEnv(llm.url, home.path, { MARVIN_ALLOW_PRIVATE_URLS: "1" });
    const run = await runMarvin(["--non-interactive", "--prompt", "Next train to Brig?"], { env, cwd: home.path });
    expect(run.code, run.stderr).toBe(0);
    const toolResult = llm.requests[1]!.body.messages.at(-1)!;
    expect(toolResult.content).toContain("IC 8 to Brig, platform 7, 14:04");
  });
});
