import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "../support/fixtures.js";
import { chunksMatching, loadedChunk, moduleLogEnv } from "../support/module-log.js";
import { runMarvin, serverEnv } from "../support/run-marvin.js";

/** The bundle file that defines a family (its family.ts, with the tools' code only it uses). */
function familyChunk(exportName: string): string {
  const defining = chunksMatching(new RegExp(`\\b${exportName}=`));
  expect(defining, `chunks defining ${exportName}`).toHaveLength(1);
  return defining[0]!;
}

describe("tool families load on first use", () => {
  test("a run loads a family's code only once one of its tools is called", async ({ llm, home }) => {
    const places = familyChunk("placesFamily");
    const coding = familyChunk("codingFamily");
    const run = async (name: string, script: Parameters<typeof llm>[0]) => {
      const server = await llm(script);
      const log = join(home, `${name}.modules`);
      const env = serverEnv(server.url, home, moduleLogEnv(log));
      const result = await runMarvin(["--non-interactive", "--prompt", "hi"], { env, cwd: home });
      expect(result.code, result.stderr).toBe(0);
      return { server, loaded: (chunk: string) => loadedChunk(log, chunk) };
    };

    const answer = await run("answer", [{ text: "Hello." }]);
    expect(answer.loaded(places)).toBe(false);
    // Coding tools are offered in a non-interactive run, but offering one does not load its code.
    expect(answer.loaded(coding)).toBe(false);

    const called = await run("call", [{ toolCalls: [{ name: "list_places", arguments: {} }] }, { text: "None." }]);
    expect(called.loaded(places)).toBe(true);
    expect(called.loaded(coding)).toBe(false);
    const result = called.server.requests[1]!.body.messages.at(-1)!;
    expect(result.role).toBe("tool");
    expect(result.content).toMatch(/no saved places/i);
  });
});

describe("a headless turn loads only what it uses", () => {
  test("without ntfy topics, preferences or custom commands, no HTTP client, http, dns, zlib or YAML", async ({
    llm,
    home,
  }) => {
    const server = await llm([{ text: "Hello." }]);
    const log = join(home, "turn.modules");
    const env = serverEnv(server.url, home, moduleLogEnv(log));
    const result = await runMarvin(["--non-interactive", "--prompt", "hi"], { env, cwd: home });
    expect(result.code, result.stderr).toBe(0);
    const loaded = readFileSync(log, "utf8").split("\n");
    expect(loaded.filter((url) => /^node:(http|https|dns|zlib)$/.test(url))).toEqual([]);
    const [httpClient] = chunksMatching(/function createHttpClient\(/);
    expect(loadedChunk(log, httpClient!)).toBe(false);
    const [yamlParser] = chunksMatching(/yaml\/dist\/nodes\/identity/);
    expect(loadedChunk(log, yamlParser!)).toBe(false);
  });
});
