import { chmod, mkdir, readdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { test as base, describe, expect } from "../../tests/support/fixtures.js";
import {
  contextNoteOf,
  type LlmServer,
  type RecordedRequest,
  type Script,
  userWords,
} from "../../tests/support/llm-server.js";
import {
  createTestSession,
  fillConversation,
  lookupTool,
  scriptedEnv,
  type TestSessionOptions,
} from "../../tests/support/test-session.js";
import { ContextBudget } from "../agent/context-budget.js";
import type { AgentEvent } from "../agent/events.js";
import { resolveProviderConfig } from "../providers/config.js";
import { createProvider } from "../providers/create.js";
import { configPaths, profilePaths } from "../state/paths.js";
import { defineTool } from "../tools/kit/define-tool.js";
import { minuteClock } from "./context-note.js";
import { CODING_ROUNDS, INTERACTIVE_ROUNDS, type Session } from "./session.js";

const lookup = lookupTool;
const mainProfile = (home: string) => profilePaths(configPaths(home), "main");

interface StartedSession {
  session: Session;
  events: AgentEvent[];
  server: LlmServer;
}

/** `startSession(script, options)`: a started session over `home` with the lookup tool and a scripted server. */
const test = base.extend<{
  startSession: (script: Script[], options?: Partial<TestSessionOptions>) => Promise<StartedSession>;
}>({
  startSession: async ({ home, llm }, use) =>
    use(async (script, options = {}) => {
      const server = await llm(script);
      const session = createTestSession({ home, llmUrl: server.url, tools: [lookup], ...options });
      const events: AgentEvent[] = [];
      session.subscribe((event) => events.push(event));
      await session.start();
      return { session, events, server };
    }),
});

async function writeChatLog(home: string, entries: Array<{ role: string; text: string; time: string }>) {
  await mkdir(mainProfile(home).dir, { recursive: true });
  await writeFile(mainProfile(home).chatLog, JSON.stringify(entries, null, 2));
}

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

describe("Session rounds", () => {
  test("allows 10 tool rounds in an interactive chat, then asks once more without tools", async ({ startSession }) => {
    expect(INTERACTIVE_ROUNDS).toBe(10);
    const script: Script[] = Array.from({ length: 10 }, () => ({ toolCalls: [{ name: "lookup", arguments: {} }] }));
    script.push({ text: "final" });
    const { session, server } = await startSession(script);
    expect(session.maxRounds).toBe(10);
    const result = await session.submit("go");
    expect(result.reason).toBe("done");
    expect(server.requests).toHaveLength(11);
    expect(server.requests[9]!.body.tools!.map((tool) => tool.function.name)).toEqual(["load_tools", "lookup"]);
    expect(server.requests[10]!.body.tools).toBeUndefined();
    expect(server.requests[10]!.body.messages.at(-1)!.content).toContain("Tool-call limit reached (10 rounds)");
    expect(session.usage.getSessionUsage()).toMatchObject({ llm_turns: 11, tool_calls: { lookup: 10 } });
    await session.close();
  });

  test("allows 50 rounds in coding mode and in non-interactive runs", async ({ home }) => {
    expect(CODING_ROUNDS).toBe(50);
    const coding = createTestSession({ home, codingMode: true });
    const headless = createTestSession({ home, nonInteractive: true });
    expect([coding.maxRounds, headless.maxRounds, headless.codingMode]).toEqual([50, 50, true]);
  });
});

describe("Session history", () => {
  test("starts a new conversation with only the system message and the user's words", async ({
    startSession,
    home,
  }) => {
    await writeChatLog(
      home,
      Array.from({ length: 25 }, (_, index) => ({
        role: index % 2 ? "assistant" : "you",
        text: `entry ${index}`,
        time: "10:00",
      })),
    );
    const { session, server } = await startSession([{ text: "ok" }]);
    await session.submit("new");
    const sent = server.requests[0]!.body.messages;
    expect(sent.map((message) => message.role)).toEqual(["system", "user"]);
    expect(sent[0]!.content).toContain("[10:00] you: entry 24");
    expect(userWords(sent[1]!.content)).toBe("new");
  });

  test("does not seed or write the chat log in non-interactive runs, but shows it compactly", async ({
    startSession,
    home,
  }) => {
    const entries = [{ role: "you", text: "old question", time: "08:15" }];
    await writeChatLog(home, entries);
    const { session, server } = await startSession([{ text: "ok" }], { nonInteractive: true });
    await session.submit("new");
    const sent = server.requests[0]!.body.messages;
    expect(sent).toHaveLength(2);
    expect(sent[0]!.content).toContain("[08:15] you: old question");
    expect(JSON.parse(await readFile(mainProfile(home).chatLog, "utf8"))).toEqual(entries);
  });

  test("appends you/assistant entries with HH:MM times to chat_log.json after an interactive exchange", async ({
    startSession,
    home,
  }) => {
    const { session } = await startSession([{ text: "Hello!" }, { status: 401 }], {
      now: () => new Date(2025, 0, 2, 9, 5),
    });
    await session.submit("hi");
    await session.submit("again");
    expect(JSON.parse(await readFile(mainProfile(home).chatLog, "utf8"))).toEqual([
      { role: "you", text: "hi", time: "09:05" },
      { role: "assistant", text: "Hello!", time: "09:05" },
      { role: "you", text: "again", time: "09:05" },
      {
        role: "system",
        text: expect.stringContaining("Error: openai-compat refused the API key (HTTP 401)"),
        time: "09:05",
      },
    ]);
  });

  test("drops nothing of a long conversation: the context budget compacts it instead of a message cap", async ({
    startSession,
  }) => {
    const { session, server } = await startSession([{ text: "ok" }]);
    for (let index = 0; index < 60; index++)
      session.messages.push({ role: "user", content: `q${index}` }, { role: "assistant", content: `a${index}` });
    await session.submit("latest");
    const sent = server.requests[0]!.body.messages;
    expect(sent).toHaveLength(1 + 120 + 1);
    expect(sent[1]).toEqual({ role: "user", content: "q0" });
    expect(userWords(sent.at(-1)!.content)).toBe("latest");
  });

  test("keeps the system message byte-identical between messages; a changed preference goes in the note", async ({
    startSession,
    home,
  }) => {
    let minute = 0;
    const now = () => new Date(2025, 0, 2, 9, minute, 30);
    const { session, server } = await startSession([{ text: "one" }, { text: "two" }, { text: "three" }], { now });
    await session.submit("first");
    await writeFile(mainProfile(home).preferences, "dietary: [vegan]\n");
    minute = 1;
    await session.submit("second");
    minute = 2;
    await session.submit("third");
    const [first, second, third] = server.requests.map((request) => request.body.messages);
    expect(second![0]).toEqual(first![0]);
    expect(third![0]).toEqual(first![0]);
    expect(first![0]!.content).not.toContain("vegan");
    expect(second!.slice(0, 2)).toEqual(first);
    expect(third!.slice(0, 4)).toEqual(second);
    expect(contextNoteOf(first![1]!.content)).toBe(
      `<context>\nCurrent date and time: ${minuteClock(new Date(2025, 0, 2, 9, 0))}\n</context>`,
    );
    expect(contextNoteOf(second!.at(-1)!.content)).toContain("User preferences now:\ndietary:\n  - vegan");
    expect(contextNoteOf(third!.at(-1)!.content)).not.toContain("vegan");
    expect(contextNoteOf(third!.at(-1)!.content)).toContain(minuteClock(new Date(2025, 0, 2, 9, 2)));
  });

  test("builds the system message again when the mode changes", async ({ startSession, workspace }) => {
    const { session, server } = await startSession([{ text: "one" }, { text: "two" }], { workingDir: workspace });
    await session.submit("first");
    session.toggleCodingMode();
    await session.submit("second");
    const [first, second] = server.requests.map((request) => request.body.messages[0]!.content);
    expect(first).not.toContain("## Coding mode");
    expect(second).toContain(`## Coding mode\nWorking directory: ${workspace}`);
  });

  test("shows a chat log rewritten during the session (compact_history) in the next system message", async ({
    startSession,
    home,
  }) => {
    const { session, server } = await startSession([{ text: "one" }, { text: "two" }]);
    await session.submit("first");
    await writeChatLog(home, [
      { role: "system", text: "[Summary of 40 earlier messages] The user likes herons.", time: "09:00" },
    ]);
    await session.submit("second");
    expect(server.requests[0]!.body.messages[0]!.content).not.toContain("herons");
    expect(server.requests[1]!.body.messages[0]!.content).toContain("The user likes herons.");
  });

  test("keeps the partial answer when aborted, in the conversation and the chat log", async ({
    startSession,
    home,
  }) => {
    const { session, events } = await startSession([
      { text: "A slow answer that will be cut short by the user.", chunkSize: 4, delayMs: 50 },
    ]);
    session.subscribe((event) => {
      if (event.type === "text_delta") setTimeout(() => session.abort(), 60);
    });
    const result = await session.submit("talk");
    expect(result.reason).toBe("aborted");
    expect(result.text.length).toBeGreaterThan(0);
    expect(session.messages.at(-1)).toEqual({ role: "assistant", content: result.text });
    expect(session.busy).toBe(false);
    const log = JSON.parse(await readFile(mainProfile(home).chatLog, "utf8"));
    expect(log.at(-1)).toMatchObject({ role: "assistant", text: result.text });
    expect(events.at(-1)).toMatchObject({ type: "agent_end", reason: "aborted" });
  });
});

describe("Session coding mode", () => {
  test(
    "answers the first message after !code with the coding request timeout (900 s), and the next chat one " +
      "with 180 s",
    async ({ startSession, home }) => {
      const servedWith: string[] = [];
      const answer = (text: string) => (request: RecordedRequest) => {
        servedWith.push(request.body.model);
        return { text };
      };
      const { session, server } = await startSession([
        answer("chat"),
        answer("code"),
        answer("chat again"),
        answer("once"),
        answer("code again"),
      ]);
      const env = scriptedEnv(server.url, home);
      // Each provider names its request timeout as its model, so the server sees which one asked.
      const recordingFactory = async (codingMode: boolean) => {
        const config = resolveProviderConfig("openai-compat", { env, home, codingMode, nonInteractive: false });
        return createProvider({ ...config, model: `timeout-${config.timeoutMs / 1000}s` }, env);
      };
      await session.useProvider(recordingFactory);
      await session.submit("hello");
      expect(session.toggleCodingMode()).toBe(true);
      await session.submit("now code");
      expect(session.toggleCodingMode()).toBe(false);
      await session.submit("back to chat");
      // `!pro` right after `!code`: the session's own provider must still be rebuilt for coding mode.
      expect(session.toggleCodingMode()).toBe(true);
      await session.submitOnce("hard one", recordingFactory);
      await session.submit("code again");
      expect(servedWith).toEqual(["timeout-180s", "timeout-900s", "timeout-180s", "timeout-900s", "timeout-900s"]);
      await session.close();
    },
  );
});

describe("Session system message", () => {
  test("includes the working directory, project instructions and documents in coding mode", async ({
    startSession,
    workspace: workingDir,
  }) => {
    await mkdir(join(workingDir, ".marvin"));
    await writeFile(join(workingDir, ".marvin-instructions"), "Always run npm test.");
    await writeFile(join(workingDir, "AGENTS.md"), "Keep functions small.");
    await writeFile(join(workingDir, ".marvin", "spec.md"), "# Spec: a todo app");
    const { session, server } = await startSession([{ text: "ok" }], { codingMode: true, workingDir });
    await session.submit("start");
    const system = server.requests[0]!.body.messages[0]!.content!;
    expect(system).toContain(`## Coding mode\nWorking directory: ${workingDir}`);
    expect(system).toContain(
      `## Project instructions (${join(workingDir, ".marvin-instructions")})\nAlways run npm test.`,
    );
    expect(system).toContain(`## Project instructions (${join(workingDir, "AGENTS.md")})\nKeep functions small.`);
    expect(system).toContain("## Project document .marvin/spec.md\n# Spec: a todo app");
  });

  test("never sends a project document that is a symlink leading out to the provider, and warns about it", async ({
    startSession,
    workspace: workingDir,
    tempDirs,
  }) => {
    const outside = await tempDirs.make("marvin-outside-");
    await writeFile(join(outside, "credentials"), "aws_secret_access_key = hunter2");
    await mkdir(join(workingDir, ".marvin"));
    await symlink(join(outside, "credentials"), join(workingDir, ".marvin", "spec.md"));
    const { session, events, server } = await startSession([{ text: "ok" }], { codingMode: true, workingDir });
    await session.submit("start");
    expect(JSON.stringify(server.requests[0]!.body)).not.toContain("hunter2");
    const warnings = events
      .filter((event) => event.type === "notice" && event.level === "warning")
      .map((event) => (event as { text: string }).text);
    expect(warnings).toEqual([
      expect.stringMatching(/^Not loading \.marvin\/spec\.md into the system prompt: .*outside the working dir/),
    ]);
  });

  test("leaves coding instructions out of an everyday chat", async ({ startSession }) => {
    const { session, server } = await startSession([{ text: "ok" }]);
    await session.submit("weather?");
    const system = server.requests[0]!.body.messages[0]!.content!;
    expect(system).toContain("## Active profile\nActive profile: main");
    expect(system).not.toContain("## Coding mode");
  });
});

describe("Session compaction", () => {
  test("backs up to .marvin/logs, summarises with the LLM, and counts the summary call", async ({
    startSession,
    workspace: workingDir,
  }) => {
    const budget = new ContextBudget({ warn: 15_000, compact: 15_000, hard: 1_000_000 });
    const { session, events, server } = await startSession(
      [{ text: "Summary of twenty messages." }, { text: "answer" }],
      {
        codingMode: true,
        workingDir,
        budget,
      },
    );
    fillConversation(session);
    const result = await session.submit("new question");
    expect(result.reason).toBe("done");

    const [summaryRequest, answerRequest] = server.requests;
    expect(summaryRequest!.body.messages[0]!.content).toMatch(/^You compress conversations\./);
    expect(summaryRequest!.body.tools).toBeUndefined();
    expect(answerRequest!.body.messages).toHaveLength(10);
    expect(answerRequest!.body.messages[1]!.content).toContain("Summary of twenty messages.");

    const logs = join(workingDir, ".marvin", "logs");
    const [backup] = await readdir(logs);
    expect(backup).toMatch(/^context-backup-.+\.jsonl$/);
    const lines = (await readFile(join(logs, backup!), "utf8")).trimEnd().split("\n");
    expect(lines).toHaveLength(22);
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ role: "user", content: "new question" });
    expect(
      events.filter((event) => event.type === "compaction").map((event) => (event as { phase: string }).phase),
    ).toEqual(["start", "end"]);
    expect(session.usage.getSessionUsage().llm_turns).toBe(2);
  });

  test(
    "never backs up into a .marvin/logs that leads out of the working dir: the profile's logs take it, " +
      "with a warning",
    async ({ startSession, home, workspace: workingDir, tempDirs }) => {
      const outside = await tempDirs.make("marvin-outside-");
      await mkdir(join(workingDir, ".marvin"));
      await symlink(outside, join(workingDir, ".marvin", "logs"));
      const budget = new ContextBudget({ warn: 15_000, compact: 15_000, hard: 1_000_000 });
      const { session, events } = await startSession([{ text: "Summary." }, { text: "answer" }], {
        codingMode: true,
        workingDir,
        budget,
      });
      fillConversation(session);
      expect((await session.submit("new question")).reason).toBe("done");
      expect(await readdir(outside)).toEqual([]);
      expect(await readdir(join(mainProfile(home).dir, "logs"))).toEqual([
        expect.stringMatching(/^context-backup-.+\.jsonl$/),
      ]);
      const warnings = events
        .filter((event) => event.type === "notice" && event.level === "warning")
        .map((event) => (event as { text: string }).text);
      expect(warnings).toEqual([
        expect.stringMatching(
          /^Refusing to use \.marvin\/logs\/: .*leading outside the working dir.* The context backup goes to .*logs instead\.$/,
        ),
      ]);
    },
  );
});

describe("Session files", () => {
  test("keep the conversation owner-only: profile, chat log, context backups and their folder", async ({
    startSession,
    home,
    workspace: workingDir,
  }) => {
    await writeChatLog(home, [{ role: "you", text: "an earlier question", time: "10:00" }]);
    const logs = join(workingDir, ".marvin", "logs");
    await mkdir(logs, { recursive: true });
    // As an older Marvin left them.
    await chmod(mainProfile(home).dir, 0o755);
    await chmod(mainProfile(home).chatLog, 0o644);
    await chmod(logs, 0o755);
    const budget = new ContextBudget({ warn: 15_000, compact: 15_000, hard: 1_000_000 });
    const { session } = await startSession([{ text: "Summary." }, { text: "answer" }], {
      codingMode: true,
      workingDir,
      budget,
    });
    fillConversation(session);
    expect((await session.submit("new question")).reason).toBe("done");
    const [backup] = await readdir(logs);
    expect(await modeOf(join(logs, backup!))).toBe(0o600);
    expect(await modeOf(logs)).toBe(0o700);
    expect(await modeOf(mainProfile(home).dir)).toBe(0o700);
    expect(await modeOf(mainProfile(home).chatLog)).toBe(0o600);
  });
});

describe("Session tool progress", () => {
  test("hands a tool's progress to subscribers as tool_progress events of its call", async ({ startSession }) => {
    const clone = defineTool({
      name: "clone",
      effect: "write",
      description: "Clones.",
      parameters: z.object({}),
      handler: async (_args, context) => {
        context.onProgress({ message: "Receiving objects", fraction: 0.25 });
        return "Cloned.";
      },
    });
    const script = [{ toolCalls: [{ name: "clone", arguments: {}, id: "c1" }] }, { text: "done" }];
    const { session, events } = await startSession(script, { tools: [clone] });
    expect((await session.submit("clone it")).reason).toBe("done");
    const progress = events.filter((event) => event.type === "tool_progress");
    const update = { message: "Receiving objects", fraction: 0.25 };
    expect(progress).toEqual([{ type: "tool_progress", turn: 1, callId: "c1", name: "clone", ...update }]);
    await session.close();
  });
});

describe("Session overflow recovery (seed 003 model cycling)", () => {
  const tooLong = {
    status: 400,
    body: {
      error: {
        message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9100 tokens.",
        type: "invalid_request_error",
        param: "messages",
        code: "context_length_exceeded",
      },
    },
  };
  const notices = (events: AgentEvent[]) => events.flatMap((event) => (event.type === "notice" ? [event.text] : []));

  test("moves to MARVIN_OVERFLOW_MODEL and asks again, saying so once", async ({ startSession }) => {
    const { session, events, server } = await startSession([tooLong, { text: "Fits now." }, { text: "Still." }], {
      env: { MARVIN_OVERFLOW_MODEL: "gpt-4o-128k" },
    });
    const result = await session.submit("a long question");
    expect(result).toMatchObject({ reason: "done", text: "Fits now." });
    expect(server.requests.map((request) => request.body.model)).toEqual(["gpt-4o-mini", "gpt-4o-128k"]);
    expect(notices(events)).toEqual([
      "The conversation is too long for gpt-4o-mini: switching to gpt-4o-128k (MARVIN_OVERFLOW_MODEL).",
    ]);
    await session.submit("and now?");
    expect(server.requests[2]!.body.model).toBe("gpt-4o-128k"); // the larger model stays
    await session.close();
  });

  test("a new conversation (clear) goes back to the model the overflow replaced", async ({ startSession }) => {
    const { session, server } = await startSession([tooLong, { text: "Fits now." }, { text: "Fresh." }], {
      env: { MARVIN_OVERFLOW_MODEL: "gpt-4o-128k" },
    });
    await session.submit("a long question");
    await session.startNewConversation();
    await session.submit("a short one");
    expect(server.requests.map((request) => request.body.model)).toEqual(["gpt-4o-mini", "gpt-4o-128k", "gpt-4o-mini"]);
    await session.close();
  });

  test("without a larger model, compacts the conversation and asks again once", async ({
    startSession,
    workspace: workingDir,
  }) => {
    const { session, events, server } = await startSession(
      [tooLong, { text: "Summary of twenty messages." }, { text: "Fits now." }],
      { codingMode: true, workingDir },
    );
    fillConversation(session);
    const result = await session.submit("new question");
    expect(result).toMatchObject({ reason: "done", text: "Fits now." });
    expect(server.requests[1]!.body.messages[0]!.content).toMatch(/^You compress conversations\./);
    expect(server.requests[2]!.body.messages).toHaveLength(10);
    expect(notices(events)).toEqual(["The conversation is too long for gpt-4o-mini: compacting it and asking again."]);
    await session.close();
  });

  test("says what to do when compacting cannot make it fit", async ({ startSession }) => {
    const { session, server } = await startSession([tooLong]);
    const result = await session.submit("one enormous message");
    expect(result.reason).toBe("error");
    expect(result.error).toBe(
      "The conversation is too long for gpt-4o-mini, and compacting it did not make it fit. Start a new " +
        "conversation (`clear`) or shorten the last message, or set MARVIN_OVERFLOW_MODEL to a larger-context " +
        "model of openai-compat.",
    );
    expect(server.requests).toHaveLength(1);
    await session.close();
  });
});

describe("Session thinking level", () => {
  test("sends MARVIN_THINKING with every request, and the level set later from then on", async ({ startSession }) => {
    const { session, server } = await startSession([{ text: "a" }, { text: "b" }, { text: "c" }], {
      env: { MARVIN_THINKING: "High" },
    });
    await session.submit("one");
    session.setThinking("off");
    await session.submit("two");
    session.setThinking(undefined);
    await session.submit("three");
    const sent = server.requests.map((request) => (request.body as { reasoning_effort?: string }).reasoning_effort);
    expect(sent).toEqual(["high", "none", undefined]);
    await session.close();
  });

  test("warns about a MARVIN_THINKING it does not know and leaves the model its default", async ({ startSession }) => {
    const { session, events, server } = await startSession([{ text: "a" }], { env: { MARVIN_THINKING: "max" } });
    await session.submit("one");
    expect(events).toContainEqual({
      type: "notice",
      level: "warning",
      text: "MARVIN_THINKING=max is not one of off, low, medium, high: the model thinks as it does by default.",
    });
    expect(server.requests[0]!.body).not.toHaveProperty("reasoning_effort");
    await session.close();
  });
});
