import type { ServerResponse } from "node:http";
import { test as base, describe, expect } from "../../../../tests/support/fixtures.js";
import { answerJson, type Handler, type LocalHttpServer } from "../../../../tests/support/local-http-server.js";
import {
  OVERPASS_BUSY_PAGE,
  OVERPASS_CAFES_BERN,
  OVERPASS_COUNT,
  OVERPASS_EMPTY,
  OVERPASS_PARSE_ERROR_PAGE,
  OVERPASS_TIMED_OUT,
} from "../../../../tests/support/payloads/places.js";
import type { ToolHarness } from "../../../../tests/support/tool-harness.js";

type OverpassAnswering = (handler: Handler) => Promise<{ harness: ToolHarness; overpass: LocalHttpServer }>;

/** `overpassAnswering(handler)`: a harness whose Overpass is a local server answering with `handler`. */
const test = base.extend<{ overpassAnswering: OverpassAnswering }>({
  overpassAnswering: async ({ home, harnesses, httpServers }, use) =>
    use(async (handler) => {
      const overpass = await httpServers.start(handler);
      return { harness: await harnesses.open({ home, env: { MARVIN_OVERPASS_URL: overpass.origin } }), overpass };
    }),
});

function sendHtml(response: ServerResponse, status: number, page: string) {
  response.writeHead(status, { "content-type": "text/html; charset=utf-8" });
  response.end(page);
}

const CAFES = "node[amenity=cafe](around:300,46.9466,7.4444);\nout center;";

describe("overpass_query", () => {
  test("posts the query as JSON output with the time limit, and lists each element", async ({ overpassAnswering }) => {
    const { harness, overpass } = await overpassAnswering(answerJson(OVERPASS_CAFES_BERN));
    expect(await harness.ok("overpass_query", { query: CAFES })).toBe(
      [
        "Overpass returned 3 elements:",
        "1. Café Fédéral — node 1234567890 — [amenity=cafe] — 46.9477553, 7.4443017",
        "   Bärenplatz 31, 3011 Bern · opening_hours: Mo-Fr 07:00-23:30; Sa 08:00-23:30; Su 09:00-18:00 · " +
          "phone: +41 31 311 11 24 · website: https://www.cafefederal.ch/",
        "2. Turnhalle — way 48213377 — [amenity=cafe] — 46.9497215, 7.4392868",
        "   cuisine: coffee_shop · contact:website: https://www.turnhalle.ch/",
        "3. (no name) — node 4450021337 — [amenity=cafe] — 46.9470418, 7.4450276",
      ].join("\n"),
    );
    const request = overpass.requests[0]!;
    expect([request.method, request.url]).toEqual(["POST", "/api/interpreter"]);
    expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(new URLSearchParams(request.body).get("data")).toBe(`[out:json][timeout:25];\n${CAFES}`);
  });

  test("replaces the query's own output format and time limit, keeping its other settings", async ({
    overpassAnswering,
  }) => {
    const { harness, overpass } = await overpassAnswering(answerJson(OVERPASS_COUNT));
    const query = "[out:xml] [timeout:900][bbox:46.94,7.43,46.96,7.46];\nnode[amenity=bench];\nout count;";
    expect(await harness.ok("overpass_query", { query, timeout: 60 })).toBe(
      "Overpass returned 1 element:\n1. nodes=41, ways=7, relations=0, total=48 — count 0",
    );
    expect(new URLSearchParams(overpass.requests[0]!.body).get("data")).toBe(
      "[out:json][timeout:60][bbox:46.94,7.43,46.96,7.46];\nnode[amenity=bench];\nout count;",
    );
  });

  test("says so when nothing matches", async ({ overpassAnswering }) => {
    const { harness } = await overpassAnswering(answerJson(OVERPASS_EMPTY));
    expect(await harness.ok("overpass_query", { query: CAFES })).toBe("Overpass found no elements for this query.");
  });

  test("reports a runtime error Overpass puts in its remark", async ({ overpassAnswering }) => {
    const { harness } = await overpassAnswering(answerJson(OVERPASS_TIMED_OUT));
    expect(await harness.ok("overpass_query", { query: CAFES })).toBe(
      'Overpass stopped early: runtime error: Query timed out in "query" at line 3 after 26 seconds. The elements ' +
        "below may be incomplete; raise timeout or narrow the query.\nOverpass found no elements for this query.",
    );
  });

  test("quotes the errors of a query Overpass rejects", async ({ overpassAnswering }) => {
    const page = (_request: unknown, response: ServerResponse) => sendHtml(response, 400, OVERPASS_PARSE_ERROR_PAGE);
    const { harness } = await overpassAnswering(page);
    expect(await harness.failure("overpass_query", { query: "nod[amenity=cafe];out;" })).toBe(
      "Error in overpass_query: Overpass did not accept the query (HTTP 400):\n" +
        '- line 2: parse error: Unknown type "nod"\n' +
        "- line 2: parse error: An empty query is not allowed\n" +
        "Fix the Overpass QL and try again.",
    );
  });

  test("says to come back later when Overpass limits the rate", async ({ overpassAnswering }) => {
    const page = (_request: unknown, response: ServerResponse) => sendHtml(response, 429, OVERPASS_BUSY_PAGE);
    const { harness, overpass } = await overpassAnswering(page);
    expect(await harness.failure("overpass_query", { query: CAFES })).toBe(
      "Error in overpass_query: Overpass API (OpenStreetMap) is limiting how often Marvin may ask (HTTP 429) — " +
        "try again in a minute.",
    );
    expect(overpass.requests).toHaveLength(1);
  });

  test("passes on a busy server's gateway timeout without repeating the query", async ({ overpassAnswering }) => {
    const page = (_request: unknown, response: ServerResponse) => sendHtml(response, 504, OVERPASS_BUSY_PAGE);
    const { harness, overpass } = await overpassAnswering(page);
    expect(await harness.failure("overpass_query", { query: CAFES })).toBe(
      "Error in overpass_query: Overpass API (OpenStreetMap) answered HTTP 504 (Gateway Timeout) — try again in a " +
        "minute.",
    );
    expect(overpass.requests).toHaveLength(1);
  });

  test("refuses an answer without elements", async ({ overpassAnswering }) => {
    const { harness } = await overpassAnswering(answerJson({ version: 0.6, generator: "Overpass API" }));
    expect(await harness.failure("overpass_query", { query: CAFES })).toMatch(
      /^Error in overpass_query: Overpass API \(OpenStreetMap\) sent an answer Marvin does not understand: elements:/,
    );
  });

  test("gives up on a server that stays silent past the query's time limit", { timeout: 30_000 }, async ({
    overpassAnswering,
  }) => {
    const { harness } = await overpassAnswering(() => undefined);
    const started = Date.now();
    expect(await harness.failure("overpass_query", { query: CAFES, timeout: 1 })).toBe(
      "Error in overpass_query: Overpass API (OpenStreetMap) took longer than 11 s to answer — try again in a " +
        "minute, or ask for less.",
    );
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
