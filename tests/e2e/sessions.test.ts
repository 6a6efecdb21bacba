import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "../support/fixtures.js";
import { type LlmServer, type RecordedRequest, userWords } from "../support/llm-server.js";
import { chunksMatching, loadedChunk, moduleLogEnv } from "../support/module-log.js";
import { MARVIN_BIN, runMarvin, serverEnv } from "../support/run-marvin.js";

const sessionsDir = (home: string) => join(home, ".config", "local-finder", "profiles", "main", "sessions");

const TEA_ROUND = [
  {
    text: "Starting it.",
    toolCalls: [{ name: "timer_start", arguments: { name: "tea", duration_seconds: 120 }, id: "call_tea" }],
  },
  { text: "Your tea timer is running." },
];

/** The conversation a request carried, without the system message in front. */
const conversation = (request: RecordedRequest) =>
  request.body.messages.slice(1).map(({ role, content, tool_call_id }) => ({
    role,
    content: role === "user" ? userWords(content) : content,
    ...(tool_call_id ? { tool_call_id } : {}),
  }));

function nonInteractive(server: LlmServer, home: string, prompt: string, args: string[] = []) {
  return runMarvin(["--non-interactive", "--prompt", prompt, ...args], { env: serverEnv(server.url, home), cwd: home });
}

describe("sessions of non-interactive runs", () => {
  test("keep nothing unless the integrator names the session", async ({ llm, home }) => {
    const server = await llm([{ text: "Hi." }]);
    expect((await nonInteractive(server, home, "hello")).code).toBe(0);
    expect(existsSync(sessionsDir(home))).toBe(false);
  });

  test("--session ID continues a conversation over two runs, tool results included", async ({ llm, home }) => {
    const server = await llm([...TEA_ROUND, { text: "It was called tea." }]);
    const first = await nonInteractive(server, home, "start a tea timer", ["--session", "build-42"]);
    expect(first.code).toBe(0);
    expect(readdirSync(sessionsDir(home))).toEqual(["build-42.jsonl"]);

    const second = await nonInteractive(server, home, "what was the timer called?", ["--session", "build-42"]);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe("It was called tea.\n");
    const carried = conversation(server.requests[2]!);
    expect(carried[0]).toEqual({ role: "user", content: "start a tea timer" });
    expect(carried[1]).toMatchObject({ role: "assistant", content: "Starting it." });
    expect(carried[2]!.role).toBe("tool");
    expect(carried[2]!.content).toContain("Countdown 'tea' started");
    expect(carried.slice(3)).toEqual([
      { role: "assistant", content: "Your tea timer is running." },
      { role: "user", content: "what was the timer called?" },
    ]);
    // The next run's request starts with the bytes of the last one (tools, system message, messages with their
    // context notes), so a provider's prompt cache serves all of it.
    const [before, after] = [server.requests[1]!.body, server.requests[2]!.body];
    expect(after.tools).toEqual(before.tools);
    expect(after.messages.slice(0, before.messages.length + 1)).toEqual([
      ...before.messages,
      { role: "assistant", content: "Your tea timer is running." },
    ]);
  });

  test("a damaged line in the middle of a session file is skipped with a notice", async ({ llm, home }) => {
    const server = await llm([{ text: "Still here." }]);
    mkdirSync(sessionsDir(home), { recursive: true });
    const at = "2026-11-24T10:00:00.000Z";
    const lines = [
      { type: "start", version: 1, id: "damaged", title: "first", startedAt: at, cwd: home, provider: null },
      { type: "message", at, message: { role: "user", content: "first question" } },
      "{ this line was torn",
      { type: "message", at, message: { role: "assistant", content: "first answer" } },
    ].map((line) =>
      typeof line === "string" ? line : JSON.stringify({ model: null, codingMode: true, workingDir: null, ...line }),
    );
    writeFileSync(join(sessionsDir(home), "damaged.jsonl"), `${lines.join("\n")}\n`);

    const run = await nonInteractive(server, home, "and now?", ["--session", "damaged"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("Session damaged: skipped 1 damaged line(s)");
    expect(conversation(server.requests[0]!)).toEqual([
      { role: "user", content: "first question" },
      { role: "assistant", content: "first answer" },
      { role: "user", content: "and now?" },
    ]);
  });

  test("a continued session larger than the context budget is compacted before the request", async ({ llm, home }) => {
    const server = await llm([{ text: "Summary: the user talked at length about rivers." }, { text: "Done." }]);
    mkdirSync(sessionsDir(home), { recursive: true });
    const at = "2026-11-24T10:00:00.000Z";
    const start = { type: "start", version: 1, id: "huge", title: "rivers", startedAt: at, cwd: home };
    const records: unknown[] = [{ ...start, provider: null, model: null, codingMode: true, workingDir: null }];
    for (let index = 0; index < 30; index++) {
      const words = Array.from({ length: 8000 }, (_, word) => `river${(index * 8000 + word) % 997}`).join(" ");
      const role = index % 2 === 0 ? "user" : "assistant";
      records.push({ type: "message", at, message: { role, content: `${index}: ${words}` } });
    }
    writeFileSync(
      join(sessionsDir(home), "huge.jsonl"),
      `${records.map((record) => JSON.stringify(record)).join("\n")}\n`,
    );

    const run = await nonInteractive(server, home, "go on", ["--session", "huge"]);
    expect(run.code).toBe(0);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]!.body.tools ?? []).toEqual([]); // the summary request
    const sent = conversation(server.requests[1]!);
    expect(sent.some((message) => message.content?.includes("the user talked at length about rivers"))).toBe(true);
    expect(sent.at(-1)).toEqual({ role: "user", content: "go on" });
    expect(sent.length).toBeLessThan(12); // summary, the most recent messages, the new one
    const file = readFileSync(join(sessionsDir(home), "huge.jsonl"), "utf8");
    expect(file).toContain('"type":"compaction"');
  });
});

describe("the token count of a saved session", () => {
  test("is recorded once counted, and a resumed run starts from it without the tokenizer", async ({ llm, home }) => {
    // Usage in every reply, as real providers send it (otherwise the tokenizer estimates it).
    const server = await llm(
      Array.from({ length: 2 }, () => ({ text: "Noted.", usage: { prompt: 9, completion: 1 } })),
    );
    mkdirSync(sessionsDir(home), { recursive: true });
    const at = "2026-11-24T10:00:00.000Z";
    const start = { type: "start", version: 1, id: "long", title: "notes", startedAt: at, cwd: home };
    const records: unknown[] = [{ ...start, provider: null, model: null, codingMode: true, workingDir: null }];
    // Over the warning level in bytes (so the budget counts exactly), far under it in tokens.
    for (let index = 0; index < 200; index++) {
      const role = index % 2 === 0 ? "user" : "assistant";
      records.push({ type: "message", at, message: { role, content: `${index}: ${"note ".repeat(300)}` } });
    }
    const path = join(sessionsDir(home), "long.jsonl");
    writeFileSync(path, `${records.map((record) => JSON.stringify(record)).join("\n")}\n`);
    const [tokenizer] = chunksMatching(/o200k_base/);
    const resume = async (name: string) => {
      const log = join(home, `${name}.modules`);
      const env = serverEnv(server.url, home, moduleLogEnv(log));
      const run = await runMarvin(["--non-interactive", "--prompt", name, "--session", "long"], { env, cwd: home });
      expect(run.code, run.stderr).toBe(0);
      return loadedChunk(log, tokenizer!);
    };

    expect(await resume("first")).toBe(true);
    const counts = readFileSync(path, "utf8")
      .split("\n")
      .filter((line) => line.includes('"type":"tokens"'))
      .map((line) => JSON.parse(line));
    expect(counts).toHaveLength(1);
    expect(counts[0].messages).toBe(201); // the stored messages and the new question
    expect(counts[0].tokens).toBeGreaterThan(200 * 300);
    expect(counts[0].tokens).toBeLessThan(180_000);

    expect(await resume("second")).toBe(false);
    expect(conversation(server.requests[1]!)).toHaveLength(203); // nothing compacted
  });
});

/** Runs `marvin --plain` with lines on stdin. */
function plain(server: LlmServer, home: string, stdin: string, args: string[] = []) {
  return runMarvin(["--plain", ...args], { env: serverEnv(server.url, home), cwd: home, stdin });
}

describe("sessions in the plain UI", () => {
  test("--continue restores the last conversation of this directory with its tool round", async ({ llm, home }) => {
    const server = await llm([...TEA_ROUND, { text: "tea." }]);
    expect((await plain(server, home, "start a tea timer\n")).code).toBe(0);
    const run = await plain(server, home, "what was it called?\n", ["--continue"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Resumed "start a tea timer"');
    expect(run.stdout).toContain("You: start a tea timer");
    const carried = conversation(server.requests[2]!);
    expect(carried.filter((message) => message.role === "tool")).toHaveLength(1);
    expect(carried.at(-1)).toEqual({ role: "user", content: "what was it called?" });
    expect(carried.filter((message) => message.content === "start a tea timer")).toHaveLength(1);
  });

  test("--continue shows the last turns that fit in full, tool calls on a line, and how many are left out", async ({
    llm,
    home,
  }) => {
    const story = Array.from({ length: 60 }, (_, index) => `Line ${index + 1} of the story.`).join("\n");
    const steps = "First, warm the pot; then ".repeat(20);
    const server = await llm([{ text: story }, ...TEA_ROUND, { text: steps }, { text: "Tea." }]);
    expect((await plain(server, home, "tell me a story\nstart a tea timer\nhow to brew?\n")).code).toBe(0);
    const run = await plain(server, home, "what was it called?\n", ["--continue"]);
    expect(run.code).toBe(0);
    const shown = run.stdout.slice(run.stdout.indexOf('Resumed "tell me a story"'));
    expect(shown).toContain(
      "[System] 2 earlier messages are not shown.\n" +
        "You: start a tea timer\n" +
        "Marvin: Starting it.\n" +
        '  🔧 timer_start  "tea" ↳ ',
    );
    expect(shown).toContain(`Marvin: Your tea timer is running.\nYou: how to brew?\nMarvin: ${steps}\n`);
    expect(shown).not.toContain("Line 60 of the story.");
  });

  test("--continue restores the thinking level and plan mode the conversation ran with", async ({ llm, home }) => {
    const server = await llm([{ text: "Planned." }, { text: "Still planning." }]);
    expect((await plain(server, home, "thinking high\nplan\nlook around\n")).code).toBe(0);
    const run = await plain(server, home, "thinking\nplan\nand then?\n", ["--continue"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Thinking: high.");
    expect(run.stdout).toContain("Plan mode is already on.");
  });

  test("sessions lists them, resume N picks one, clear starts afresh", async ({ llm, home }) => {
    const server = await llm([{ text: "One." }, { text: "Two." }, { text: "Back in one." }, { text: "Fresh." }]);
    await plain(server, home, "first topic\n");
    await plain(server, home, "second topic\n");
    const run = await plain(server, home, "sessions\nresume 2\nanything new?\nclear\nhello again\n");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/ 1\. second topic\n.*\n 2\. first topic\n/);
    expect(run.stdout).toContain('Resumed "first topic"');
    expect(conversation(server.requests[2]!)).toEqual([
      { role: "user", content: "first topic" },
      { role: "assistant", content: "One." },
      { role: "user", content: "anything new?" },
    ]);
    expect(run.stdout).toContain("New conversation. The previous one is saved: resume ");
    expect(conversation(server.requests[3]!)).toEqual([{ role: "user", content: "hello again" }]);
  });

  test("--resume without an id lists the sessions and takes a number", async ({ llm, home }) => {
    const server = await llm([{ text: "One." }, { text: "Again." }]);
    await plain(server, home, "first topic\n");
    const run = await plain(server, home, "1\nmore please\n", ["--resume"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Saved sessions \(resume N or resume ID\):\n 1\. first topic\n/);
    expect(run.stdout).toContain('Resumed "first topic"');
    expect(conversation(server.requests[1]!).map((message) => message.content)).toEqual([
      "first topic",
      "One.",
      "more please",
    ]);
  });

  test("after kill -9 mid-answer, --continue restores everything before the cut", async ({ llm, home }) => {
    let reachedStall: () => void = () => undefined;
    const stalled = new Promise<void>((resolve) => (reachedStall = resolve));
    const server = await llm([
      TEA_ROUND[0]!,
      () => {
        reachedStall();
        return { stall: { text: "The timer is" } };
      },
      { text: "Resumed fine." },
    ]);
    const child = spawn(process.execPath, [MARVIN_BIN, "--plain"], {
      cwd: home,
      env: serverEnv(server.url, home) as NodeJS.ProcessEnv,
      stdio: ["pipe", "ignore", "ignore"],
    });
    child.stdin.write("start a tea timer\n");
    await stalled;
    const exited = new Promise((resolve) => child.on("close", resolve));
    child.kill("SIGKILL");
    await exited;

    const run = await plain(server, home, "is it running?\n", ["--continue"]);
    expect(run.code).toBe(0);
    const carried = conversation(server.requests[2]!);
    expect(carried[0]).toEqual({ role: "user", content: "start a tea timer" });
    expect(carried[1]).toMatchObject({ role: "assistant", content: "Starting it." });
    expect(carried[2]).toMatchObject({ role: "tool", tool_call_id: "call_tea" });
    expect(carried.at(-1)).toEqual({ role: "user", content: "is it running?" });
  });
});
