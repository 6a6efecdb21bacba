import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "../../../../tests/support/fixtures.js";
import { sendJson } from "../../../../tests/support/local-http-server.js";
import { startNtfyServer } from "../../../../tests/support/ntfy-server.js";

const subscriptionsFile = (home: string) =>
  join(home, ".config", "local-finder", "profiles", "main", "ntfy_subscriptions.json");
const readSubscriptions = (home: string) => JSON.parse(readFileSync(subscriptionsFile(home), "utf8"));
const query = (url: string) => Object.fromEntries(new URL(url, "http://ntfy.local").searchParams);

describe("ntfy subscriptions, in the original Marvin's file format", () => {
  test("generate_ntfy_topic makes an unguessable topic and subscribes to it", async ({ home, harnesses }) => {
    const harness = await harnesses.open({ home, env: { MARVIN_NTFY_URL: "https://ntfy.example.org/" } });
    const text = await harness.ok("generate_ntfy_topic", { label: "dinner alerts" });
    const topic = /Topic: (\S+)/.exec(text)![1]!;
    expect(topic).toMatch(/^marvin-[A-Za-z0-9_-]{24}$/);
    expect(text).toContain(`URL: https://ntfy.example.org/${topic}\n`);
    expect(text).toMatch(/\nAlarms and calendar reminders are pushed to this topic from now on\.$/);
    const second = await harness.ok("generate_ntfy_topic", {});
    const other = /Topic: (\S+)/.exec(second)![1]!;
    expect(other).not.toBe(topic);
    expect(second).toContain(`pushed to this topic from now on (instead of '${topic}').`);
    const saved = readSubscriptions(home);
    expect(Object.keys(saved)).toEqual([topic, other]);
    expect(saved[topic]).toEqual({
      label: "dinner alerts",
      url: `https://ntfy.example.org/${topic}`,
      since: expect.any(Number),
    });
    expect(saved[other]).toMatchObject({ label: other, push_alarms: true });
    expect(await harness.ok("ntfy_unsubscribe", { topic: other })).toBe(
      `Unsubscribed from '${other}'. 1 subscription(s) left. Alarms and reminders set from now on are not pushed ` +
        "(those set before still are); generate_ntfy_topic makes a new topic of the user's own.",
    );
  });

  test("subscribe and unsubscribe keep the entries the Python Marvin wrote", async ({ home, harnesses }) => {
    mkdirSync(join(subscriptionsFile(home), ".."), { recursive: true });
    const python = { "deal-watch-7f3k": { label: "Deals", url: "https://ntfy.sh/deal-watch-7f3k" } };
    writeFileSync(subscriptionsFile(home), JSON.stringify(python, null, 2));
    const harness = await harnesses.open({ home });
    expect(await harness.ok("ntfy_subscribe", { topic: "backups", label: "" })).toBe(
      "Subscribed to 'backups' (https://ntfy.sh/backups), labelled 'backups'. 2 subscription(s) now.",
    );
    expect(readSubscriptions(home)["deal-watch-7f3k"]).toEqual(python["deal-watch-7f3k"]);
    expect(await harness.failure("ntfy_subscribe", { topic: "no spaces/here" })).toContain(
      "'no spaces/here' is not an ntfy topic name",
    );
    expect(await harness.ok("ntfy_unsubscribe", { topic: "nothing" })).toBe(
      "Not subscribed to 'nothing'; nothing changed. Subscribed topics: deal-watch-7f3k, backups.",
    );
    expect(await harness.ok("ntfy_unsubscribe", { topic: "deal-watch-7f3k" })).toBe(
      "Unsubscribed from 'deal-watch-7f3k'. 1 subscription(s) left.",
    );
    expect(Object.keys(readSubscriptions(home))).toEqual(["backups"]);
  });
});

describe("ntfy_publish", () => {
  test("posts the message with its title and reports ntfy's message id", async ({ home, harnesses, httpServers }) => {
    const ntfy = await startNtfyServer(httpServers);
    const harness = await harnesses.open({ home, env: { MARVIN_NTFY_URL: ntfy.origin } });
    const text = await harness.ok("ntfy_publish", { topic: "phone", message: "Milk, eggs, bread", title: "Shopping" });
    const [sent] = ntfy.messages.get("phone")!;
    expect(text).toBe(`Sent to ntfy topic 'phone' on ${ntfy.origin} (message id ${sent!.id}).`);
    // ntfy's JSON publishing: everything in the body, nothing in headers.
    expect(ntfy.requests[0]).toMatchObject({ method: "POST", url: "/" });
    expect(ntfy.requests[0]!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(ntfy.requests[0]!.body)).toEqual({
      topic: "phone",
      message: "Milk, eggs, bread",
      title: "Shopping",
    });
  });

  test("a title with line breaks or control characters is sent as one line, and the answer says so", async ({
    home,
    harnesses,
    httpServers,
  }) => {
    const ntfy = await startNtfyServer(httpServers);
    const harness = await harnesses.open({ home, env: { MARVIN_NTFY_URL: ntfy.origin } });
    const text = await harness.ok("ntfy_publish", {
      topic: "phone",
      message: "Milk\r\neggs\u0007",
      title: "Shopping\r\nClick: http://evil.example\u001b[31m",
    });
    const [sent] = ntfy.messages.get("phone")!;
    expect(sent).toMatchObject({ title: "Shopping Click: http://evil.example[31m", message: "Milk\neggs" });
    expect(ntfy.requests[0]!.headers.click).toBeUndefined();
    expect(text).toBe(
      `Sent to ntfy topic 'phone' on ${ntfy.origin} (message id ${sent!.id}). The title held line breaks or ` +
        "control characters, which a notification title cannot show, so it was sent as: " +
        "'Shopping Click: http://evil.example[31m'.",
    );
  });

  test("still honours the older NTFY_URL setting", async ({ home, harnesses, httpServers }) => {
    const ntfy = await startNtfyServer(httpServers);
    const harness = await harnesses.open({ home, env: { NTFY_URL: ntfy.origin } });
    await harness.ok("ntfy_publish", { topic: "phone", message: "hi" });
    expect(ntfy.messages.get("phone")).toHaveLength(1);
    expect(JSON.parse(ntfy.requests[0]!.body)).toEqual({ topic: "phone", message: "hi" });
  });

  test("reports ntfy's error answer and a body that is not ntfy's JSON", async ({ home, harnesses, httpServers }) => {
    const limited = await httpServers.start((_request, response) =>
      sendJson(
        response,
        {
          code: 42908,
          http: 429,
          error: "limit reached: too many messages",
          link: "https://ntfy.sh/docs/publish/#limitations",
        },
        429,
      ),
    );
    const harness = await harnesses.open({ home, env: { MARVIN_NTFY_URL: limited.origin } });
    expect(await harness.failure("ntfy_publish", { topic: "phone", message: "hi" })).toBe(
      "Error in ntfy_publish: ntfy is limiting how often Marvin may ask (HTTP 429) — try again in a minute.",
    );
    const html = await httpServers.start((_request, response) => {
      response.writeHead(200, { "content-type": "text/html" });
      response.end("<html><body>Welcome to nginx!</body></html>");
    });
    const other = await harnesses.open({ home, env: { MARVIN_NTFY_URL: html.origin } });
    expect(await other.failure("ntfy_publish", { topic: "phone", message: "hi" })).toContain(
      "ntfy sent an answer Marvin does not understand: it sent a web page where JSON was expected.",
    );
  });
});

describe("ntfy_list", () => {
  test("lists the subscriptions and shows each new notification once", async ({ home, harnesses, httpServers }) => {
    const ntfy = await startNtfyServer(httpServers);
    const harness = await harnesses.open({ home, env: { MARVIN_NTFY_URL: ntfy.origin } });
    expect(await harness.ok("ntfy_list", {})).toBe("No ntfy subscriptions. generate_ntfy_topic creates one.");
    await harness.ok("ntfy_subscribe", { topic: "backups", label: "Backups", own: true });
    const since = readSubscriptions(home).backups.since as number;
    const first = ntfy.add("backups", "Nightly backup finished: 12 GB", { title: "nas01", time: since + 5 });
    const text = await harness.ok("ntfy_list", {});
    expect(text).toMatch(
      new RegExp(
        `^ntfy subscriptions \\(1\\):\\n1\\. Backups — topic backups, ${ntfy.origin}/backups ` +
          "\\(the user's own: alarms and reminders are pushed here\\)\\n\\n" +
          "New notifications:\\n\\[\\d\\d:\\d\\d\\] ntfy 'Backups': nas01 — Nightly backup finished: 12 GB$",
      ),
    );
    expect(query(ntfy.requests[0]!.url)).toEqual({ poll: "1", since: String(since) });
    expect(await harness.ok("ntfy_list", {})).toMatch(/\n\nNo new notifications\.$/);
    expect(query(ntfy.requests[1]!.url)).toEqual({ poll: "1", since: first.id });
    expect(readSubscriptions(home).backups).toMatchObject({ last_id: first.id, last_time: first.time });
  });

  test("names a topic it could not poll, and a poll answer that is not ntfy's JSON stream", async ({
    home,
    harnesses,
    httpServers,
  }) => {
    const broken = await httpServers.start((_request, response) => {
      response.writeHead(200, { "content-type": "application/x-ndjson" });
      response.end('{"id":"a1","time":1700000000,"event":"message","topic":"t","message":"ok"}\n<html>oops</html>\n');
    });
    const harness = await harnesses.open({ home, env: { MARVIN_NTFY_URL: broken.origin } });
    await harness.ok("ntfy_subscribe", { topic: "t", label: "Team" });
    expect(await harness.ok("ntfy_list", {})).toMatch(
      /No new notifications\.\nCould not check ntfy topic 'Team': ntfy answered the poll with something that is not its JSON stream/,
    );
  });
});
