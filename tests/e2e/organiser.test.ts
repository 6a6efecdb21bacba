import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "../support/fixtures.js";
import { contextNoteOf, type RecordedRequest, userWords } from "../support/llm-server.js";
import { startNtfyServer } from "../support/ntfy-server.js";
import { runMarvin, serverEnv } from "../support/run-marvin.js";

/** ntfy_subscriptions.json as the original Python Marvin writes it: topic → label and URL. */
function subscribe(home: string, topic: string, label: string, server: string): void {
  const dir = join(home, ".config", "local-finder", "profiles", "main");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "ntfy_subscriptions.json"),
    JSON.stringify({ [topic]: { label, url: `${server}/${topic}` } }),
  );
}

const NOTE_HEADER = "Notifications that arrived since the last message:";
/** The notification lines of each user message's context note. */
const notificationNotes = (request: RecordedRequest) =>
  request.body.messages
    .filter((message) => message.role === "user")
    .map((message) =>
      contextNoteOf(message.content)
        ?.split(`${NOTE_HEADER}\n`)[1]
        ?.replace(/\n<\/context>$/, ""),
    )
    .filter((lines) => lines !== undefined);

describe("the ntfy polling hook in the plain UI", () => {
  test("a notification published between two messages reaches the model with the second, once", async ({
    home,
    llm,
    httpServers,
  }) => {
    const ntfy = await startNtfyServer(httpServers);
    subscribe(home, "family-x7Qp", "Family", ntfy.origin);
    const server = await llm([
      () => {
        // Someone publishes from their phone while Marvin answers the first message.
        ntfy.add("family-x7Qp", "Dinner is ready", { title: "Mum", tags: ["spaghetti"] });
        return { text: "Hello." };
      },
      { text: "Mum says dinner is ready." },
      { text: "Nothing new." },
    ]);
    const run = await runMarvin(["--plain"], {
      env: serverEnv(server.url, home, { MARVIN_NTFY_URL: ntfy.origin }),
      cwd: home,
      stdin: "hi\nanything new?\nand now?\n",
    });
    expect(run.code).toBe(0);
    const [first, second, third] = server.requests;
    expect(notificationNotes(first!)).toEqual([]);
    // With the message it arrived with, and still in the conversation afterwards, but never added again.
    const note = notificationNotes(second!);
    expect(note).toEqual([expect.stringMatching(/^\[\d\d:\d\d\] ntfy 'Family': Mum — Dinner is ready$/)]);
    expect(userWords(second!.body.messages.at(-1)!.content)).toBe("anything new?");
    expect(notificationNotes(third!)).toEqual(note);
    expect(run.stdout.match(/Dinner is ready/g)).toHaveLength(1);
    const polls = ntfy.requests.filter((request) => request.method === "GET").map((request) => request.url);
    expect(polls).toHaveLength(3);
    expect(polls[0]).toBe("/family-x7Qp/json?poll=1&since=1h");
    expect(polls[2]).toBe(`/family-x7Qp/json?poll=1&since=${ntfy.messages.get("family-x7Qp")![0]!.id}`);
  });

  test("a dead or silent ntfy server costs a notice and a short wait, never the turn", async ({
    home,
    llm,
    httpServers,
  }) => {
    const silent = await httpServers.start(() => undefined); // accepts, never answers
    subscribe(home, "family-x7Qp", "Family", silent.origin);
    const server = await llm([{ text: "Still here." }]);
    const started = Date.now();
    const run = await runMarvin(["--plain"], {
      env: serverEnv(server.url, home, { MARVIN_NTFY_URL: silent.origin }),
      cwd: home,
      stdin: "hi\n",
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Could not check ntfy topic 'Family': no answer from ${silent.origin} in time`);
    expect(run.stdout).toContain("Still here.");
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(notificationNotes(server.requests[0]!)).toEqual([]);

    await silent.close();
    const refused = await runMarvin(["--plain"], {
      env: serverEnv(server.url, home, { MARVIN_NTFY_URL: silent.origin }),
      cwd: home,
      stdin: "hi\n",
    });
    expect(refused.code).toBe(0);
    expect(refused.stdout).toMatch(/Could not check ntfy topic 'Family': Nothing answers at http:\/\/127\.0\.0\.1:\d+/);
  });
});

describe("the ntfy polling hook in a non-interactive run", () => {
  test("what arrived on the subscribed topics reaches the model with the prompt", async ({
    home,
    llm,
    httpServers,
  }) => {
    const ntfy = await startNtfyServer(httpServers);
    subscribe(home, "build-x7Qp", "Builds", ntfy.origin);
    ntfy.add("build-x7Qp", "Nightly build failed on arm64", { title: "CI" });
    const server = await llm([{ text: "The nightly build failed on arm64." }, { text: "Looks fine." }]);
    const run = await runMarvin(["--non-interactive", "--prompt", "anything I should know?"], {
      env: serverEnv(server.url, home, { MARVIN_NTFY_URL: ntfy.origin }),
      cwd: home,
    });
    expect(run.code).toBe(0);
    const [request] = server.requests;
    expect(notificationNotes(request!)).toEqual([
      expect.stringMatching(/^\[\d\d:\d\d\] ntfy 'Builds': CI — Nightly build failed on arm64$/),
    ]);
    expect(userWords(request!.body.messages.at(-1)!.content)).toBe("anything I should know?");
    expect(run.stdout).toBe("The nightly build failed on arm64.\n");
    expect(run.stderr).toMatch(/ntfy 'Builds': CI — Nightly build failed on arm64\n/);

    // A reviewer Marvin started itself leaves the user's notifications to the user.
    ntfy.add("build-x7Qp", "Release tagged", { title: "CI" });
    const polls = () => ntfy.requests.filter((request) => request.method === "GET").length;
    const before = polls();
    const nested = await runMarvin(["--non-interactive", "--prompt", "review this"], {
      env: serverEnv(server.url, home, { MARVIN_NTFY_URL: ntfy.origin, MARVIN_DEPTH: "1" }),
      cwd: home,
    });
    expect(nested.code).toBe(0);
    expect(polls()).toBe(before);
    expect(notificationNotes(server.requests[1]!)).toEqual([]);
  });
});
