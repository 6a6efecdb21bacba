import { mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "../../../tests/support/fixtures.js";
import { ContextBudget } from "../../agent/context-budget.js";
import type { Message } from "../../providers/types.js";
import { SessionJournal } from "./journal.js";
import { numberUserMessages, parseSession } from "./session-file.js";
import { isValidSessionId, newSessionId } from "./session-id.js";
import { SessionStore } from "./session-store.js";

const STATE = { provider: "groq", model: "llama", codingMode: false, workingDir: null };

/** A journal over a live message list, as a session drives it. */
function journalFor(store: SessionStore, id?: string, budget = new ContextBudget()) {
  const messages: Message[] = [];
  const notices: string[] = [];
  const state = { ...STATE };
  const source = {
    messages,
    cwd: "/work/project",
    state: () => state,
    systemPrompt: () => (messages[0]?.content === "You are Marvin" ? messages[0] : undefined),
    knownTokens: (counted: readonly Message[]) => budget.knownTokens(counted),
    notice: (text: string) => notices.push(text),
  };
  const journal = new SessionJournal(store, source, id);
  return { journal, messages, notices, state };
}

describe("SessionJournal and SessionStore", () => {
  test("writes each message once, in order, with a start line and state changes", async ({ home }) => {
    const store = new SessionStore(join(home, "sessions"));
    const { journal, messages, state } = journalFor(store, "talk");
    messages.push({ role: "system", content: "You are Marvin" }, { role: "user", content: "Plan a trip\nto Bern" });
    journal.listener({ type: "agent_start", maxRounds: 10 });
    messages.push({
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c1", type: "function", function: { name: "osm_search", arguments: '{"query":"Bern"}' } }],
    });
    journal.listener({ type: "tool_calls", turn: 1, names: ["osm_search"] });
    messages.push({ role: "tool", tool_call_id: "c1", content: "1. Bern" });
    state.codingMode = true;
    journal.listener({ type: "turn_end", turn: 1, finishReason: "tool_calls" });
    journal.listener({ type: "turn_end", turn: 1, finishReason: "tool_calls" }); // nothing new: nothing written
    await journal.flush();

    const text = readFileSync(join(home, "sessions", "talk.jsonl"), "utf8");
    expect(text.split("\n").map((line) => (line ? JSON.parse(line).type : ""))).toEqual([
      "start",
      "message",
      "message",
      "state",
      "message",
      "",
    ]);
    expect(statSync(join(home, "sessions", "talk.jsonl")).mode & 0o777).toBe(0o600);
    const loaded = await store.load("talk");
    expect(loaded?.start).toMatchObject({ title: "Plan a trip", cwd: "/work/project", provider: "groq" });
    expect(loaded?.messages).toEqual(messages.slice(1));
    expect(loaded?.state.codingMode).toBe(true);
  });

  test("a compaction replaces the conversation on load; the earlier messages stay in the file", async ({ home }) => {
    const store = new SessionStore(join(home, "sessions"));
    const { journal, messages } = journalFor(store, "long");
    messages.push({ role: "user", content: "one" }, { role: "assistant", content: "two" });
    journal.listener({ type: "agent_start", maxRounds: 10 });
    const summary: Message = { role: "system", content: "[Compacted history summary]\none, two" };
    messages.splice(0, messages.length, { role: "system", content: "You are Marvin" }, summary);
    journal.listener({ type: "compaction", phase: "end", tokensBefore: 10, tokensAfter: 2 });
    messages.push({ role: "user", content: "three" });
    journal.listener({ type: "agent_start", maxRounds: 10 });

    const loaded = await store.load("long");
    const contents = loaded?.messages.map((message) => message.content);
    expect(contents).toEqual(["[Compacted history summary]\none, two", "three"]);
    expect(loaded?.totalMessages).toBe(3);
    expect(readFileSync(join(home, "sessions", "long.jsonl"), "utf8")).toContain('"content":"one"');
  });

  test("an image goes to the file once by reference, however often a compaction repeats it", async ({ home }) => {
    const store = new SessionStore(join(home, "sessions"));
    const { journal, messages } = journalFor(store, "shots");
    const image = { mediaType: "image/png" as const, data: Buffer.alloc(1024 * 1024, 7).toString("base64") };
    messages.push({ role: "user", content: "look", images: [image] }, { role: "assistant", content: "Grey." });
    journal.listener({ type: "agent_start", maxRounds: 10 });
    journal.listener({ type: "compaction", phase: "end", tokensBefore: 10, tokensAfter: 2 });
    journal.listener({ type: "compaction", phase: "end", tokensBefore: 10, tokensAfter: 2 });
    await journal.flush();
    expect(statSync(join(home, "sessions", "shots.jsonl")).size).toBeLessThan(2_000);
    expect(readdirSync(join(home, "sessions", "shots.images"))).toHaveLength(1);
    expect((await store.load("shots"))?.messages).toEqual(messages);
  });

  test("records the token count the budget knows at the end of a run; a rewind or compaction voids it", async ({
    home,
  }) => {
    const store = new SessionStore(join(home, "sessions"));
    const budget = new ContextBudget();
    const { journal, messages } = journalFor(store, "counted", budget);
    messages.push({ role: "user", content: "one" }, { role: "assistant", content: "two" });
    journal.listener({ type: "agent_end", reason: "done", text: "two", rounds: 1 });
    expect((await store.load("counted"))!.tokenCount).toBeUndefined(); // nothing counted exactly: nothing recorded
    const tokens = await budget.exactTokens(messages);
    messages.push({ role: "user", content: "three" });
    journal.listener({ type: "agent_end", reason: "done", text: "two", rounds: 1 });
    expect((await store.load("counted"))!.tokenCount).toEqual({ messages: 2, tokens });

    messages.splice(1);
    journal.recordRewind(1);
    expect((await store.load("counted"))!.tokenCount).toBeUndefined();
    await budget.exactTokens(messages);
    journal.listener({ type: "agent_end", reason: "done", text: "", rounds: 1 });
    expect((await store.load("counted"))!.tokenCount?.messages).toBe(1);
    messages.splice(0, 1, { role: "system", content: "[Compacted history summary]\none" });
    journal.listener({ type: "compaction", phase: "end", tokensBefore: 10, tokensAfter: 2 });
    expect((await store.load("counted"))!.tokenCount).toBeUndefined();
  });

  test("counts what was said and answered, not the tool steps, alike in the journal, the file and the list", async ({
    home,
  }) => {
    const store = new SessionStore(join(home, "sessions"));
    const { journal, messages } = journalFor(store, "counted");
    messages.push({ role: "user", content: "Plan a trip" });
    journal.listener({ type: "agent_start", maxRounds: 10 });
    messages.push(
      {
        role: "assistant",
        content: "Looking.",
        tool_calls: [{ id: "c1", type: "function", function: { name: "osm_search", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "c1", content: "1. Bern" },
      { role: "assistant", content: "Bern it is." },
    );
    journal.listener({ type: "agent_end", reason: "done", text: "Bern it is.", rounds: 2 });
    expect(journal.messageCount).toBe(2);
    const loaded = (await store.load("counted"))!;
    expect(loaded.totalMessages).toBe(2);
    expect((await store.list())[0]!.messageCount).toBe(2);

    const continued = journalFor(store);
    continued.journal.continueWith(loaded);
    expect(continued.journal.messageCount).toBe(2);
    continued.journal.startNew();
    expect(continued.journal.messageCount).toBe(0);
  });

  test("numbers user messages over the conversation's life: a compaction or a rewind keeps the numbers", async ({
    home,
  }) => {
    const store = new SessionStore(join(home, "sessions"));
    const { journal, messages } = journalFor(store, "numbered");
    messages.push(
      { role: "user", content: "one" },
      { role: "assistant", content: "two" },
      { role: "user", content: "three" },
      { role: "assistant", content: "four" },
    );
    journal.listener({ type: "agent_end", reason: "done", text: "four", rounds: 1 });
    expect(numberUserMessages(messages, journal.messageCount).map((entry) => entry.message)).toEqual([1, 3]);
    messages.splice(0, 2, { role: "system", content: "[Compacted history summary]\none, two" });
    journal.listener({ type: "compaction", phase: "end", tokensBefore: 10, tokensAfter: 2 });
    expect(numberUserMessages(messages, journal.messageCount)).toEqual([{ message: 3, index: 1, text: "three" }]);
    messages.splice(1);
    journal.recordRewind(2);
    messages.push({ role: "user", content: "three again" });
    journal.listener({ type: "agent_start", maxRounds: 10 });
    const loaded = (await store.load("numbered"))!;
    expect(loaded.messages.map((message) => message.content)).toEqual([
      "[Compacted history summary]\none, two",
      "three again",
    ]);
    expect(numberUserMessages(loaded.messages, loaded.totalMessages)).toEqual([
      { message: 3, index: 1, text: "three again" },
    ]);
  });

  test("continuing after a torn last line starts the next record on a new line", async ({ home }) => {
    const store = new SessionStore(join(home, "sessions"));
    const first = journalFor(store, "torn");
    first.messages.push({ role: "user", content: "before the crash" });
    first.journal.listener({ type: "agent_start", maxRounds: 10 });
    const path = join(home, "sessions", "torn.jsonl");
    writeFileSync(path, `${readFileSync(path, "utf8")}{"type":"message","at":"2026-11-24T1`);

    const stored = (await store.load("torn"))!;
    expect(stored.skippedLines).toBe(1);
    const second = journalFor(store);
    second.journal.continueWith(stored);
    second.messages.push(...stored.messages, { role: "user", content: "after the crash" });
    second.journal.listener({ type: "agent_start", maxRounds: 10 });
    expect((await store.load("torn"))!.messages.map((message) => message.content)).toEqual([
      "before the crash",
      "after the crash",
    ]);
  });

  test("lists newest first, finds by number, id or unique prefix, and says why not", async ({ home }) => {
    const store = new SessionStore(join(home, "sessions"));
    for (const [id, title, age] of [
      ["20261101-090000-aaaa", "oldest", 3],
      ["20261102-090000-bbbb", "middle", 2],
      ["20261102-100000-cccc", "newest", 1],
    ] as const) {
      const { journal, messages } = journalFor(store, id);
      messages.push({ role: "user", content: title });
      journal.listener({ type: "agent_start", maxRounds: 10 });
      const time = new Date(Date.now() - age * 3_600_000);
      utimesSync(join(home, "sessions", `${id}.jsonl`), time, time);
    }
    writeFileSync(join(home, "sessions", "notes.txt"), "not a session");
    writeFileSync(join(home, "sessions", "broken.jsonl"), "garbage\n");

    expect((await store.list()).map((session) => session.title)).toEqual(["newest", "middle", "oldest"]);
    expect(await store.find("1")).toEqual({ id: "20261102-100000-cccc" });
    expect(await store.find("20261101")).toEqual({ id: "20261101-090000-aaaa" });
    expect(await store.find("20261102")).toEqual({
      problem: expect.stringMatching(/^'20261102' matches 2 sessions .* give more of the id\.$/),
    });
    expect(await store.find("nope")).toEqual({ problem: "No session 'nope'. The 'sessions' command lists them." });
    expect(await store.latestIn("/work/project")).toMatchObject({ title: "newest" });
    expect(await store.latestIn("/elsewhere")).toBeUndefined();
  });

  test("keeps at most the cap, removing the oldest, and says so", async ({ home }) => {
    const store = new SessionStore(join(home, "sessions"), 2);
    const notices: string[] = [];
    for (const [index, id] of ["a1", "a2", "a3"].entries()) {
      const session = journalFor(store, id);
      session.messages.push({ role: "user", content: id });
      session.journal.listener({ type: "agent_start", maxRounds: 10 });
      await session.journal.flush();
      notices.push(...session.notices);
      const time = new Date(Date.now() - (10 - index) * 60_000);
      utimesSync(join(home, "sessions", `${id}.jsonl`), time, time);
    }
    mkdirSync(store.checkpointsDirOf("a2"));
    mkdirSync(store.checkpointsDirOf("a3"));
    const fourth = journalFor(store, "a4");
    fourth.messages.push({ role: "user", content: "a4" });
    fourth.journal.listener({ type: "agent_start", maxRounds: 10 });
    await fourth.journal.flush();
    expect((await store.list()).map((session) => session.id).sort()).toEqual(["a3", "a4"]);
    expect(readdirSync(join(home, "sessions")).sort()).toEqual([
      "a3.checkpoints",
      "a3.jsonl",
      "a4.jsonl",
      "summaries.json",
    ]);
    expect([...notices, ...fourth.notices]).toEqual([
      "Removed the 1 oldest saved session(s) to stay within MARVIN_MAX_SESSIONS.",
      "Removed the 1 oldest saved session(s) to stay within MARVIN_MAX_SESSIONS.",
    ]);
  });

  test("a list reads only the sessions changed since the last one; a damaged index is rebuilt", async ({ home }) => {
    const store = new SessionStore(join(home, "sessions"));
    const { journal, messages } = journalFor(store, "talk");
    messages.push({ role: "user", content: "first question" });
    journal.listener({ type: "agent_start", maxRounds: 10 });
    await journal.flush();
    const path = store.pathOf("talk");
    const changedAt = new Date("2026-11-24T10:00:00Z");
    utimesSync(path, changedAt, changedAt);
    expect(await store.list()).toMatchObject([{ id: "talk", messageCount: 1, lastUserLine: "first question" }]);
    // The same size and time of change: the index answers, the file is not read again.
    writeFileSync(path, "x".repeat(statSync(path).size));
    utimesSync(path, changedAt, changedAt);
    expect(await store.list()).toMatchObject([{ id: "talk", lastUserLine: "first question" }]);
    writeFileSync(path, "no session here\n"); // changed: read again
    expect(await store.list()).toEqual([]);

    const other = journalFor(store, "other");
    other.messages.push({ role: "user", content: "hello" });
    other.journal.listener({ type: "agent_start", maxRounds: 10 });
    await other.journal.flush();
    writeFileSync(join(home, "sessions", "summaries.json"), "{ damaged");
    expect(await store.list()).toMatchObject([{ id: "other", messageCount: 1, lastUserLine: "hello" }]);
    other.messages.push({ role: "assistant", content: "hi" }, { role: "user", content: "and now?" });
    other.journal.listener({ type: "agent_start", maxRounds: 10 });
    await other.journal.flush();
    expect(await store.list()).toMatchObject([{ id: "other", messageCount: 3, lastUserLine: "and now?" }]);
  });

  test("a file that cannot be written costs one notice, not the run", async ({ home }) => {
    writeFileSync(join(home, "sessions"), "a file where the folder should be");
    const { journal, messages, notices } = journalFor(new SessionStore(join(home, "sessions")), "x");
    messages.push({ role: "user", content: "hello" });
    journal.listener({ type: "agent_start", maxRounds: 10 });
    messages.push({ role: "assistant", content: "hi" });
    journal.listener({ type: "agent_end", reason: "done", text: "hi", rounds: 1 });
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/^Could not save this conversation \(session x\): /);
  });
});

describe("session ids and files", () => {
  test("new ids sort by time and are valid; hostile ids are refused", () => {
    expect(newSessionId(new Date(2026, 10, 24, 9, 5, 7))).toMatch(/^20261124-090507-[0-9a-f]{4}$/);
    for (const id of ["../etc/passwd", "a/b", ".hidden", "", "x".repeat(101), "a..b"])
      expect(isValidSessionId(id)).toBe(false);
    expect(isValidSessionId("build-42.v2_final")).toBe(true);
    expect(() => new SessionStore("/tmp/s").pathOf("../x")).toThrow(/not a valid session id/);
  });

  test("a file without a readable start line is not a session", () => {
    expect(parseSession('{"type":"message","at":"x","message":{"role":"user","content":"hi"}}\n')).toBeUndefined();
  });
});
