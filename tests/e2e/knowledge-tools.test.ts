import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "../support/fixtures.js";
import { sendJson } from "../support/local-http-server.js";
import { SE_BAD_PARAMETER } from "../support/payloads/stack-exchange.js";
import { WIKI_EXTRACT_LOVELACE } from "../support/payloads/wikipedia.js";
import { runMarvin, serverEnv } from "../support/run-marvin.js";

describe("knowledge tools in the built CLI", () => {
  test("saves a Wikipedia article, greps it, and the fact found reaches the model", async ({
    home,
    llm,
    httpServers,
  }) => {
    const wikipedia = await httpServers.start((_request, response) => sendJson(response, WIKI_EXTRACT_LOVELACE));
    const server = await llm([
      { toolCalls: [{ name: "wiki_full", arguments: { title: "Ada Lovelace" } }] },
      { toolCalls: [{ name: "wiki_grep", arguments: { title: "Ada Lovelace", pattern: "algorithm" } }] },
      { text: "Her Note G computed Bernoulli numbers." },
    ]);
    const env = serverEnv(server.url, home, { MARVIN_WIKIPEDIA_URL: wikipedia.origin });
    const run = await runMarvin(["--non-interactive", "--prompt", "What did Ada Lovelace's Note G do?"], {
      env,
      cwd: home,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("  🔧 wiki_full\n  🔧 wiki_grep\nHer Note G computed Bernoulli numbers.\n");
    expect(existsSync(join(home, "Downloads", "wikipedia", "en", "Ada_Lovelace.txt"))).toBe(true);
    const saved = server.requests[1]!.body.messages.at(-1)!;
    expect(saved.content).toMatch(/^Saved the Wikipedia article 'Ada Lovelace' to /);
    expect(saved.content).not.toContain("Bernoulli");
    const grepped = server.requests[2]!.body.messages.at(-1)!;
    expect(grepped).toMatchObject({ role: "tool" });
    expect(grepped.content).toContain("Note G describes an algorithm for the engine to compute Bernoulli numbers");
  });

  test("hands a service failure to the model and still exits 0", async ({ home, llm, httpServers }) => {
    const stackExchange = await httpServers.start((_request, response) => sendJson(response, SE_BAD_PARAMETER, 400));
    const server = await llm([
      { toolCalls: [{ name: "stack_search", arguments: { query: "flatten list" } }] },
      { text: "Stack Exchange refused the search." },
    ]);
    const env = serverEnv(server.url, home, { MARVIN_STACKEXCHANGE_URL: stackExchange.origin });
    const run = await runMarvin(["--non-interactive", "--prompt", "How to flatten a list?"], { env, cwd: home });
    expect(run.code, run.stderr).toBe(0);
    const result = server.requests[1]!.body.messages.at(-1)!;
    expect(result.content).toMatch(/Stack Exchange answered HTTP 400 \(Bad Request\): "site is required"/);
  });
});
