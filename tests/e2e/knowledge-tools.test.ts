import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type LlmServer, startLlmServer } from "../support/llm-server.js";
import { LocalHttpServers, sendJson } from "../support/local-http-server.js";
import { SE_BAD_PARAMETER } from "../support/payloads/stack-exchange.js";
import { WIKI_EXTRACT_LOVELACE } from "../support/payloads/wikipedia.js";
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

describe("knowledge tools in the built CLI", () => {
  it("saves a Wikipedia article, greps it, and the fact found reaches the model", async () => {
    const wikipedia = await services.start((_request, response) => sendJson(response, WIKI_EXTRACT_LOVELACE));
    llm = await startLlmServer([
      { toolCalls: [{ name: "wiki_full", arguments: { title: "Ada Lovelace" } }] },
      { toolCalls: [{ name: "wiki_grep", arguments: { title: "Ada Lovelace", pattern: "algorithm" } }] },
      { text: "Her Note G computed Bernoulli numbers." },
    ]);
    const env = serverEnv(llm.url, home.path, { MARVIN_WIKIPEDIA_URL: wikipedia.origin });
    const run = await runMarvin(["--non-interactive", "--prompt", "What did Ada Lovelace's Note G do?"], {
      env,
      cwd: home.path,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("  🔧 wiki_full\n  🔧 wiki_grep\nHer Note G computed Bernoulli numbers.\n");
    expect(existsSync(join(home.path, "Downloads", "wikipedia", "en", "Ada_Lovelace.txt"))).toBe(true);
    const saved = llm.requests[1]!.body.messages.at(-1)!;
    expect(saved.content).toMatch(/^Saved the Wikipedia article 'Ada Lovelace' to /);
    expect(saved.content).not.toContain("Bernoulli");
    const grepped = llm.requests[2]!.body.messages.at(-1)!;
    expect(grepped).toMatchObject({ role: "tool" });
    expect(grepped.content).toContain("Note G describes an algorithm for the engine to compute Bernoulli numbers");
  });

  it("hands a service failure to the model and still exits 0", async () => {
    const stackExchange = await services.start((_request, response) => sendJson(response, SE_BAD_PARAMETER, 400));
    llm = await startLlmServer([
      { toolCalls: [{ name: "stack_search", arguments: { query: "flatten list" } }] },
      { text: "Stack Exchange refused the search." },
    ]);
    const env = serverEnv(llm.url, home.path, { MARVIN_STACKEXCHANGE_URL: stackExchange.origin });
    const run = await runMarvin(["--non-interactive", "--prompt", "How to flatten a list?"], { env, cwd: home.path });
    expect(run.code, run.stderr).toBe(0);
    const result = llm.requests[1]!.body.messages.at(-1)!;
    expect(result.content).toMatch(/Stack Exchange answered HTTP 400 \(Bad Request\): "site is required"/);
  });
});
