import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "../support/fixtures.js";
import { MARVIN_BIN, runMarvin, serverEnv } from "../support/run-marvin.js";

const CHUNKS = join(MARVIN_BIN, "..", "chunks");

/** The bundle file that defines a family (its family.ts, with the tools' code only it uses). */
function familyChunk(exportName: string): string {
  const defining = readdirSync(CHUNKS).filter((name) =>
    new RegExp(`\\b${exportName}=`).test(readFileSync(join(CHUNKS, name), "utf8")),
  );
  expect(defining, `chunks defining ${exportName}`).toHaveLength(1);
  return defining[0]!;
}

/** A module hook that writes the URL of every module the process loads to $MARVIN_TEST_MODULE_LOG. */
const LOG_HOOKS =
  'import { appendFileSync } from "node:fs";' +
  "export async function load(url, context, next) {" +
  "  appendFileSync(process.env.MARVIN_TEST_MODULE_LOG, url + '\\n');" +
  "  return next(url, context);" +
  "}";
const REGISTER_HOOKS =
  'import { register } from "node:module";' +
  `register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(LOG_HOOKS)}`)});`;

describe("tool families load on first use", () => {
  test("a run loads a family's code only once one of its tools is called", async ({ llm, home }) => {
    const places = familyChunk("placesFamily");
    const coding = familyChunk("codingFamily");
    const run = async (name: string, script: Parameters<typeof llm>[0]) => {
      const server = await llm(script);
      const log = join(home, `${name}.modules`);
      const env = serverEnv(server.url, home, {
        NODE_OPTIONS: `--import "data:text/javascript,${encodeURIComponent(REGISTER_HOOKS)}"`,
        MARVIN_TEST_MODULE_LOG: log,
      });
      const result = await runMarvin(["--non-interactive", "--prompt", "hi"], { env, cwd: home });
      expect(result.code, result.stderr).toBe(0);
      const loaded = readFileSync(log, "utf8").split("\n");
      return { server, loaded: (chunk: string) => loaded.some((url) => url.endsWith(`/chunks/${chunk}`)) };
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
