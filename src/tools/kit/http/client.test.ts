import { readdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { z } from "zod";
import { describe, expect, test } from "../../../../tests/support/fixtures.js";
import type { Handler, LocalHttpServer } from "../../../../tests/support/local-http-server.js";
import { answerJson, sendJson } from "../../../../tests/support/local-http-server.js";
import type { Env } from "../../../shared/env.js";
import { marvinVersion } from "../../../shared/version.js";
import type { ExternalService, HttpClientOptions, RequestOptions } from "./index.js";
import { createHttpClient, http, ServiceError } from "./index.js";

const WEATHER: ExternalService = {
  name: "Weather Test",
  envVar: "MARVIN_WEATHER_TEST_URL",
  defaultUrl: "http://127.0.0.1:9",
};
const forecast = z.object({ temperature: z.number(), days: z.array(z.string()) });
const GOOD = { temperature: 21.5, days: ["mon", "tue"] };

/** A handler answering with a status, headers and an optional raw body. */
const reply =
  (status: number, headers: Record<string, string>, body?: string | Buffer): Handler =>
  (_request, response) => {
    response.writeHead(status, headers);
    response.end(body);
  };

function client(env: Env = {}, options: Partial<HttpClientOptions> = {}) {
  return createHttpClient({ env, signal: new AbortController().signal, ...options });
}

/** A client whose Weather Test service lives on `server`. */
function weather(server: LocalHttpServer, options: Partial<HttpClientOptions> = {}) {
  return client({ MARVIN_WEATHER_TEST_URL: server.origin }, options);
}

function getForecast(server: LocalHttpServer, options?: RequestOptions) {
  return weather(server).getJson(WEATHER, "/v1/forecast", {}, forecast, options);
}

async function failureOf(promise: Promise<unknown>): Promise<ServiceError> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(ServiceError);
  return outcome as ServiceError;
}

async function timed<T>(run: () => Promise<T>): Promise<{ outcome: T; ms: number }> {
  const started = performance.now();
  const outcome = await run();
  return { outcome, ms: performance.now() - started };
}

describe("service requests", () => {
  test("sends a User-Agent naming Marvin, its version and a contact URL", async ({ httpServers }) => {
    const server = await httpServers.start(answerJson(GOOD));
    await getForecast(server);
    const headers = server.requests[0]!.headers;
    expect(headers["user-agent"]).toBe(`Marvin/${marvinVersion()} (+https://www.npmjs.com/package/marvin-assistant)`);
    expect(marvinVersion()).toMatch(/^\d+\.\d+\.\d+/);
    expect(headers.accept).toBe("application/json");
    expect(headers["accept-encoding"]).toBe("gzip, deflate, br");
  });

  test("keeps the mount path of the setting and encodes the query", async ({ httpServers }) => {
    const server = await httpServers.start(answerJson(GOOD));
    const mounted = client({ MARVIN_WEATHER_TEST_URL: `${server.origin}/prefix/` });
    const query = { city: "São Paulo", day: [1, 2], skip: undefined };
    expect(await mounted.getJson(WEATHER, "/v1/forecast", query, forecast)).toEqual(GOOD);
    expect(server.requests[0]!.url).toBe("/prefix/v1/forecast?city=S%C3%A3o%20Paulo&day=1&day=2");
  });

  test("uses the service's default URL when its setting is unset", async ({ httpServers }) => {
    const server = await httpServers.start(answerJson(GOOD));
    const local: ExternalService = { ...WEATHER, defaultUrl: `${server.origin}/mounted` };
    expect(await client().getText(local, "/v1/ping")).toBe(JSON.stringify(GOOD));
    expect(server.requests[0]!.url).toBe("/mounted/v1/ping");
  });

  test("builds the client from a tool context's env and signal", async ({ httpServers }) => {
    const server = await httpServers.start(answerJson(GOOD));
    const context = { env: { MARVIN_WEATHER_TEST_URL: server.origin }, signal: new AbortController().signal };
    expect((await http(context).getJson(WEATHER, "/v1/x", {}, forecast)).temperature).toBe(21.5);
  });
  test("hands a passed 4xx status to the caller with its body, and still throws others", async ({ httpServers }) => {
    const page = "<p><strong>Error</strong>: line 1: parse error</p>";
    const server = await httpServers.start(reply(400, { "content-type": "text/html" }, page));
    const target = { service: WEATHER, path: "/api/interpreter" };
    const passed = await weather(server).send(target, { body: "x", passStatuses: [400] });
    expect([passed.status, await passed.text()]).toEqual([400, page]);
    const thrown = await failureOf(weather(server).send(target, { body: "x", passStatuses: [403] }));
    expect([thrown.kind, thrown.status]).toEqual(["status", 400]);
  });
});

describe("time limits and cancellation", () => {
  test("stops a body that takes longer than the time limit, with a clear message and no retry", async ({
    httpServers,
  }) => {
    const server = await httpServers.start((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write('{"temperature": ');
      // Never finishes: the client's limit has to end it.
    });
    const { outcome, ms } = await timed(() => failureOf(getForecast(server, { timeoutMs: 300 })));
    expect(outcome.kind).toBe("timeout");
    expect(outcome.message).toBe(
      "Weather Test took longer than 0.3 s to answer — try again in a minute, or ask for less.",
    );
    expect(ms).toBeLessThan(2_000);
    expect(server.requests).toHaveLength(1);
  });

  test("cancels promptly when the tool's signal aborts, closing the connection", async ({ httpServers }) => {
    const closed = { at: 0 };
    const server = await httpServers.start((_request, response) => {
      response.on("close", () => (closed.at = performance.now()));
      // Never answers at all.
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const cancellable = weather(server, { signal: controller.signal });
    const { outcome, ms } = await timed(() => failureOf(cancellable.getText(WEATHER, "/")));
    expect(outcome.kind).toBe("cancelled");
    expect(outcome.message).toBe("The request to Weather Test was cancelled.");
    expect(ms).toBeLessThan(1_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed.at).toBeGreaterThan(0);
    expect(server.requests).toHaveLength(1);
  });

  test("fails at once when the signal is already aborted", async ({ httpServers }) => {
    const server = await httpServers.start(answerJson(GOOD));
    const controller = new AbortController();
    controller.abort();
    const cancelled = weather(server, { signal: controller.signal });
    expect((await failureOf(cancelled.getText(WEATHER, "/"))).kind).toBe("cancelled");
    expect(server.connections).toBe(0);
  });
});

describe("retries", () => {
  const failingFirst =
    (first: Handler): Handler =>
    (request, response, index) =>
      index === 0 ? first(request, response, index) : sendJson(response, GOOD);

  test("retries once after a 503 and succeeds", async ({ httpServers }) => {
    const server = await httpServers.start(failingFirst(answerJson({ error: "busy" }, 503)));
    expect(await getForecast(server)).toEqual(GOOD);
    expect(server.requests).toHaveLength(2);
  });

  test("gives up after a second 503 with a message naming the service", async ({ httpServers }) => {
    const server = await httpServers.start(answerJson({ message: "maintenance until noon" }, 503));
    const error = await failureOf(getForecast(server));
    expect(error.message).toBe(
      'Weather Test answered HTTP 503 (Service Unavailable): "maintenance until noon" — try again in a minute.',
    );
    expect(error.status).toBe(503);
    expect(server.requests).toHaveLength(2);
  });

  test("does not retry a 5xx whose Retry-After is too far away", async ({ httpServers }) => {
    const server = await httpServers.start(answerJson({}, 503, { "retry-after": "120" }));
    const error = await failureOf(getForecast(server));
    expect(error.message).toBe("Weather Test answered HTTP 503 (Service Unavailable) — try again in 2m 00s.");
    expect(server.requests).toHaveLength(1);
  });

  test("does not retry a POST after a 5xx", async ({ httpServers }) => {
    const server = await httpServers.start(answerJson({}, 502));
    const error = await failureOf(weather(server).send({ service: WEATHER, path: "/publish" }, { json: { a: 1 } }));
    expect(error.status).toBe(502);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ method: "POST", body: '{"a":1}' });
    expect(server.requests[0]!.headers["content-type"]).toBe("application/json");
  });

  test("retries once after the connection breaks", async ({ httpServers }) => {
    const server = await httpServers.start(failingFirst((_request, response) => void response.socket?.destroy()));
    expect(await getForecast(server)).toEqual(GOOD);
    expect(server.requests).toHaveLength(2);
  });

  test("retries once after the connection breaks in the middle of the body", async ({ httpServers }) => {
    const server = await httpServers.start(
      failingFirst((_request, response) => {
        response.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
        response.write('{"temperature"', () => response.socket?.destroy());
      }),
    );
    expect(await getForecast(server)).toEqual(GOOD);
    expect(server.requests).toHaveLength(2);
  });

  test("does not retry a 4xx, and quotes the error body's message field only", async ({ httpServers }) => {
    const body = { error: { message: "No city called Atlantis", trace: "at x.js:1" } };
    const server = await httpServers.start(answerJson(body, 404));
    const error = await failureOf(getForecast(server));
    expect(error.message).toBe(
      'Weather Test answered HTTP 404 (Not Found): "No city called Atlantis" — ' +
        "not found; check the name or address asked for.",
    );
    expect(error.kind).toBe("status");
    expect(server.requests).toHaveLength(1);
  });

  test("keeps the error body for services whose errors carry a code (OSRM's NoRoute)", async ({ httpServers }) => {
    const body = { code: "NoRoute", message: "Impossible route between points" };
    const server = await httpServers.start(answerJson(body, 400));
    const error = await failureOf(getForecast(server));
    expect(error.message).toMatch(/^Weather Test answered HTTP 400 \(Bad Request\): "Impossible route between points"/);
    expect(JSON.parse(error.body!)).toEqual(body);
  });

  test("never dumps a non-JSON error body", async ({ httpServers }) => {
    const page = "<html><body>Traceback (most recent call last): secret stuff</body></html>";
    const server = await httpServers.start(reply(400, { "content-type": "text/html" }, page));
    expect((await failureOf(getForecast(server))).message).toBe(
      "Weather Test answered HTTP 400 (Bad Request) — it did not accept the request; check the parameters.",
    );
  });

  test("says where nothing answers, naming the setting", async ({ httpServers }) => {
    const server = await httpServers.start(answerJson(GOOD));
    await server.close();
    const error = await failureOf(getForecast(server));
    expect(error.kind).toBe("network");
    expect(error.message).toBe(
      `Nothing answers at ${server.origin} (connection refused) — Weather Test may be down; try again later ` +
        `(or that MARVIN_WEATHER_TEST_URL=${server.origin} is right).`,
    );
  });
});

describe("rate limits", () => {
  test("waits out a Retry-After of 1 second once and retries", async ({ httpServers }) => {
    const server = await httpServers.start((request, response, index) =>
      index === 0 ? answerJson({}, 429, { "retry-after": "1" })(request, response, index) : sendJson(response, GOOD),
    );
    const { outcome, ms } = await timed(() => getForecast(server));
    expect(outcome).toEqual(GOOD);
    expect(ms).toBeGreaterThanOrEqual(950);
    expect(server.requests).toHaveLength(2);
  });

  test("fails fast when Retry-After is an hour, saying when to try again", async ({ httpServers }) => {
    const server = await httpServers.start(answerJson({}, 429, { "retry-after": "3600" }));
    const { outcome, ms } = await timed(() => failureOf(getForecast(server)));
    expect(outcome.kind).toBe("rate-limited");
    expect(outcome.message).toBe(
      "Weather Test is limiting how often Marvin may ask (HTTP 429) — try again in 1h 00m 00s.",
    );
    expect(ms).toBeLessThan(1_000);
    expect(server.requests).toHaveLength(1);
  });

  test("honours Retry-After only once", async ({ httpServers }) => {
    const server = await httpServers.start(answerJson({}, 429, { "retry-after": "0" }));
    const error = await failureOf(getForecast(server));
    expect(error.message).toBe("Weather Test is limiting how often Marvin may ask (HTTP 429) — try again in 0s.");
    expect(server.requests).toHaveLength(2);
  });
});

describe("body size cap", () => {
  test("stops reading a streamed body at the cap, long before the server is done", async ({ httpServers }) => {
    const total = 200 * 1024 * 1024;
    const sent = { bytes: 0 };
    const server = await httpServers.start(async (_request, response) => {
      response.writeHead(200, { "content-type": "text/plain" });
      const chunk = Buffer.alloc(64 * 1024, "a");
      while (sent.bytes < total && !response.destroyed) {
        sent.bytes += chunk.length;
        if (response.write(chunk)) continue;
        await new Promise((resolve) => response.once("drain", resolve).once("close", resolve));
      }
      response.end();
    });
    const error = await failureOf(weather(server).getText(WEATHER, "/v1/big", {}, { maxBytes: 1024 * 1024 }));
    expect(error.kind).toBe("too-large");
    expect(error.message).toBe(
      "Weather Test sent more than 1 MB; Marvin stopped reading there — " +
        "ask for less (a narrower query, fewer results).",
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sent.bytes).toBeLessThan(total / 4);
  });

  test("refuses a declared Content-Length over the cap without reading it", async ({ httpServers }) => {
    const server = await httpServers.start((_request, response) => {
      response.writeHead(200, { "content-length": String(10 * 1024 * 1024) });
      response.write("x");
    });
    expect((await failureOf(getForecast(server))).message).toMatch(/^Weather Test sent more than 5 MB;/);
  });

  test("caps the decoded size, so a small gzip bomb is stopped too", async ({ httpServers }) => {
    const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(20 * 1024);
    const server = await httpServers.start(reply(200, { "content-encoding": "gzip" }, bomb));
    expect((await failureOf(getForecast(server, { maxBytes: 1024 * 1024 }))).kind).toBe("too-large");
  });
});

describe("content encodings and answers", () => {
  test.for([
    ["gzip", gzipSync],
    ["br", brotliCompressSync],
    ["deflate", deflateSync],
  ] as const)("decodes %s-encoded JSON", async ([encoding, compress], { httpServers }) => {
    const body = compress(Buffer.from(JSON.stringify(GOOD)));
    const headers = { "content-type": "application/json", "content-encoding": encoding };
    const server = await httpServers.start(reply(200, headers, body));
    expect(await getForecast(server)).toEqual(GOOD);
  });

  test("names an encoding it cannot read", async ({ httpServers }) => {
    const server = await httpServers.start(reply(200, { "content-encoding": "zstd" }, "xx"));
    expect((await failureOf(getForecast(server))).message).toMatch(
      /^Weather Test sent an answer Marvin does not understand: it is compressed as 'zstd', which Marvin cannot read\./,
    );
  });

  test("explains a compressed answer that does not unpack", async ({ httpServers }) => {
    const damaged = gzipSync(Buffer.from(JSON.stringify(GOOD))).subarray(0, 12);
    const server = await httpServers.start(reply(200, { "content-encoding": "gzip" }, damaged));
    const error = await failureOf(getForecast(server));
    expect(error.kind).toBe("bad-answer");
    expect(error.message).toMatch(
      /^Weather Test sent an answer Marvin does not understand: its compressed answer is damaged/,
    );
    expect(server.requests).toHaveLength(1);
  });

  test("explains malformed JSON", async ({ httpServers }) => {
    const server = await httpServers.start(reply(200, { "content-type": "application/json" }, '{"temperature": 21,'));
    const error = await failureOf(getForecast(server));
    expect(error.kind).toBe("bad-answer");
    expect(error.message).toBe(
      "Weather Test sent an answer Marvin does not understand: " +
        `it sent '{"temperature": 21,' where JSON was expected. ` +
        `Check that MARVIN_WEATHER_TEST_URL=${server.origin} points at Weather Test.`,
    );
  });

  test("recognises a web page where JSON was expected", async ({ httpServers }) => {
    const html = { "content-type": "text/html; charset=utf-8" };
    const server = await httpServers.start(reply(200, html, "<p>Welcome to nginx</p>"));
    expect((await failureOf(getForecast(server))).message).toContain("it sent a web page where JSON was expected");
  });

  test("explains JSON that does not match the schema, field by field", async ({ httpServers }) => {
    const server = await httpServers.start(answerJson({ temperature: "warm", days: [1] }));
    expect((await failureOf(getForecast(server))).message).toMatch(
      "Weather Test sent an answer Marvin does not understand: " +
        "temperature: Invalid input: expected number, received string; " +
        "days.0: Invalid input: expected string, received number.",
    );
  });

  test("reads text in the charset the answer names", async ({ httpServers }) => {
    const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9]);
    const server = await httpServers.start(reply(200, { "content-type": "text/plain; charset=iso-8859-1" }, latin1));
    expect(await weather(server).getText(WEATHER, "/v1/x")).toBe("café");
  });
});

describe("URLs the model chose", () => {
  const redirectTo = (location: string, status = 302) => reply(status, { location });

  test.for([
    "http://127.0.0.1:PORT/",
    "http://0x7f.1:PORT/",
    "http://2130706433:PORT/",
    "http://0177.0.0.1:PORT/",
    "http://127.1:PORT/",
    "http://0.0.0.0:PORT/",
    "http://[::ffff:127.0.0.1]:PORT/",
    "http://[::ffff:7f00:1]:PORT/",
    "http://localhost:PORT/",
  ])("refuses %s without any connection reaching the listening server", async (template, { httpServers }) => {
    const server = await httpServers.start(answerJson(GOOD));
    const error = await failureOf(client().send({ url: template.replace("PORT", String(server.port)) }));
    expect(error.kind).toBe("refused");
    expect(error.message).toMatch(/^Marvin does not open http:\/\/.*(is|resolves to .*,) (a loopback|an unspecified) /);
    expect(server.connections).toBe(0);
  });

  test("checks the addresses a name resolves to when connecting", async ({ httpServers }) => {
    const server = await httpServers.start(answerJson(GOOD));
    const error = await failureOf(client().send({ url: `http://localhost:${server.port}/` }));
    expect(error.kind).toBe("refused");
    expect(error.message).toMatch(
      /^Marvin does not open http:\/\/localhost:\d+\/: localhost resolves to (127\.0\.0\.1|::1), a loopback address\./,
    );
    expect(server.connections).toBe(0);
  });

  test("opens local addresses when MARVIN_ALLOW_PRIVATE_URLS=1", async ({ httpServers }) => {
    const server = await httpServers.start(answerJson(GOOD));
    const allowing = client({ MARVIN_ALLOW_PRIVATE_URLS: "1" });
    const response = await allowing.send({ url: `http://0x7f.1:${server.port}/page` });
    expect(response.url).toBe(`http://127.0.0.1:${server.port}/page`);
    expect(JSON.parse(await response.text())).toEqual(GOOD);
  });

  test("refuses a redirect from a public page to a private address, before connecting to it", async ({
    httpServers,
  }) => {
    const inside = await httpServers.start(answerJson({ secret: true }));
    const outside = await httpServers.start(redirectTo(`http://127.0.0.1:${inside.port}/admin`));
    // The test server stands in for a public site: its origin is trusted, the redirect target is not.
    const trusting = client({}, { trustedOrigins: [outside.origin] });
    const error = await failureOf(trusting.send({ url: `${outside.origin}/article` }));
    expect(error.kind).toBe("refused");
    const target = `http://127.0.0.1:${inside.port}/admin`;
    expect(error.message).toContain(`Marvin does not open ${target}: 127.0.0.1 is a loopback address.`);
    expect(outside.requests).toHaveLength(1);
    expect(inside.connections).toBe(0);
  });

  test("refuses a redirect to a name that resolves to a private address", async ({ httpServers }) => {
    const inside = await httpServers.start(answerJson({ secret: true }));
    const outside = await httpServers.start(redirectTo(`http://localhost:${inside.port}/`, 301));
    const error = await failureOf(client({}, { trustedOrigins: [outside.origin] }).send({ url: outside.origin }));
    expect(error.kind).toBe("refused");
    expect(inside.connections).toBe(0);
  });

  test("checks a service's redirect to another origin like any URL the model chose", async ({ httpServers }) => {
    const elsewhere = await httpServers.start(answerJson(GOOD));
    const server = await httpServers.start(redirectTo(`${elsewhere.origin}/v1/forecast`));
    expect((await failureOf(getForecast(server))).kind).toBe("refused");
    expect(elsewhere.connections).toBe(0);
  });

  test("refuses a redirect to another scheme", async ({ httpServers }) => {
    const server = await httpServers.start(redirectTo("file:///etc/passwd"));
    expect((await failureOf(client({ MARVIN_ALLOW_PRIVATE_URLS: "1" }).send({ url: server.origin }))).message).toBe(
      "Marvin cannot open file:///etc/passwd: it is a file: address; Marvin only fetches http and https.",
    );
  });

  test("follows up to five redirects, then gives up", async ({ httpServers }) => {
    const server = await httpServers.start((request, response, index) => {
      const next = `/${Number(request.url.slice(1)) + 1}`;
      return redirectTo(next, 307)(request, response, index);
    });
    const error = await failureOf(client({ MARVIN_ALLOW_PRIVATE_URLS: "1" }).send({ url: `${server.origin}/0` }));
    expect(error.message).toBe(
      `127.0.0.1:${server.port} redirected more than 5 times — the address may be wrong or the page may have moved.`,
    );
    expect(server.requests.map((request) => request.url)).toEqual(["/0", "/1", "/2", "/3", "/4", "/5"]);
  });

  test("turns a POST into a GET after a 303, and follows a service's own redirects", async ({ httpServers }) => {
    const server = await httpServers.start((request, response, index) =>
      request.url === "/submit"
        ? redirectTo("/result", 303)(request, response, index)
        : sendJson(response, { method: request.method, body: request.body }),
    );
    const form = new URLSearchParams({ a: "1" });
    const response = await weather(server).send({ service: WEATHER, path: "/submit" }, { body: form });
    expect(response.url).toBe(`${server.origin}/result`);
    expect(JSON.parse(await response.text())).toEqual({ method: "GET", body: "" });
    expect(server.requests[0]).toMatchObject({ method: "POST", body: "a=1" });
    expect(server.requests[0]!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
  });

  test("says a URL that does not parse is not a web address", async () => {
    expect((await failureOf(client().send({ url: "not a url" }))).message).toBe(
      "Marvin cannot open 'not a url': it is not a valid web address. " +
        "Give a full URL such as https://example.org/page.",
    );
  });
});

describe("downloads", () => {
  test("streams the body into a file, reporting progress, and leaves no temporary file", async ({
    httpServers,
    tempDirs,
  }) => {
    const payload = Buffer.alloc(300 * 1024, 7);
    const server = await httpServers.start(reply(200, { "content-length": String(payload.length) }, payload));
    const file = join(await tempDirs.make(), "file.bin");
    const progress: Array<[number, number | undefined]> = [];
    const onProgress = (received: number, total: number | undefined) => progress.push([received, total]);
    const size = await weather(server).download({ service: WEATHER, path: "/file.bin" }, file, { onProgress });
    expect(size).toBe(payload.length);
    expect((await readFile(file)).equals(payload)).toBe(true);
    expect(await readdir(dirname(file))).toEqual(["file.bin"]);
    expect(progress.at(-1)).toEqual([payload.length, payload.length]);
    expect(progress.every(([received], index) => index === 0 || received > progress[index - 1]![0])).toBe(true);
  });

  test("leaves nothing behind when the download passes its cap", async ({ httpServers, tempDirs }) => {
    const server = await httpServers.start(reply(200, {}, Buffer.alloc(200 * 1024)));
    const dir = await tempDirs.make();
    const target = { service: WEATHER, path: "/big" };
    const download = weather(server).download(target, join(dir, "big.bin"), { maxBytes: 100 * 1024 });
    expect((await failureOf(download)).message).toMatch(/^Weather Test sent more than 100 KB;/);
    expect(await readdir(dir)).toEqual([]);
  });
});
