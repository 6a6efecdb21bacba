import { z } from "zod";
import { describe, expect, test } from "../../../../tests/support/fixtures.js";
import { sendJson } from "../../../../tests/support/local-http-server.js";
import { createHttpClient, type ExternalService, ServiceError } from "./index.js";

const PACED: ExternalService = {
  name: "Paced Test",
  envVar: "MARVIN_PACED_TEST_URL",
  defaultUrl: "http://127.0.0.1:9",
  minIntervalMs: 300,
};
const answer = z.object({ ok: z.boolean() });

describe("a service with minIntervalMs", () => {
  test("gets parallel requests one interval apart, from separate clients too", async ({ httpServers }) => {
    const arrivals: number[] = [];
    const server = await httpServers.start((_request, response) => {
      arrivals.push(performance.now());
      sendJson(response, { ok: true });
    });
    const env = { MARVIN_PACED_TEST_URL: server.origin };
    const ask = () => createHttpClient({ env, signal: new AbortController().signal }).getJson(PACED, "/", {}, answer);
    await Promise.all([ask(), ask(), ask()]);
    expect(arrivals).toHaveLength(3);
    for (let index = 1; index < arrivals.length; index++) {
      // Paced requests leave 300 ms apart; the first may take a little longer to arrive (connection setup).
      expect(arrivals[index]! - arrivals[index - 1]!).toBeGreaterThanOrEqual(220);
    }
  });

  test("paces the retry after a server error too", async ({ httpServers }) => {
    const arrivals: number[] = [];
    const server = await httpServers.start((_request, response, index) => {
      arrivals.push(performance.now());
      sendJson(response, index === 0 ? { error: "busy" } : { ok: true }, index === 0 ? 503 : 200);
    });
    const client = createHttpClient({
      env: { MARVIN_PACED_TEST_URL: server.origin },
      signal: AbortSignal.timeout(5_000),
    });
    expect(await client.getJson(PACED, "/", {}, answer)).toEqual({ ok: true });
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(220);
  });

  test("gives up waiting for its turn when the call is cancelled", async ({ httpServers }) => {
    const server = await httpServers.start((_request, response) => sendJson(response, { ok: true }));
    const env = { MARVIN_PACED_TEST_URL: server.origin };
    await createHttpClient({ env, signal: new AbortController().signal }).getJson(PACED, "/", {}, answer);
    const controller = new AbortController();
    const waiting = createHttpClient({ env, signal: controller.signal }).getJson(PACED, "/", {}, answer);
    controller.abort();
    const failure = await waiting.catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ServiceError);
    expect((failure as ServiceError).message).toBe("The request to Paced Test was cancelled.");
    expect(server.requests).toHaveLength(1);
  });
});
