import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { test as base, describe, expect } from "../../tests/support/fixtures.js";
import type { LlmServer, Script } from "../../tests/support/llm-server.js";
import {
  createTestSession,
  fillConversation,
  lookupTool,
  type TestSessionOptions,
} from "../../tests/support/test-session.js";
import { ContextBudget } from "../agent/context-budget.js";
import type { AgentEvent } from "../agent/events.js";
import { configPaths } from "../state/paths.js";
import { localDay } from "../state/usage.js";
import type { Session } from "./session.js";
import { parseUsd, SpendingCapReached, SpendingCaps } from "./spending-caps.js";

/** What a check sees when nothing is spent today; `today` counts how often it was asked. */
function spending(conversation: number, today = 0) {
  const asked = { count: 0 };
  return {
    asked,
    spending: {
      conversation,
      today: async () => {
        asked.count += 1;
        return today;
      },
    },
  };
}

async function refusal(caps: SpendingCaps, conversation: number, today = 0): Promise<SpendingCapReached> {
  const error = await caps.check(spending(conversation, today).spending).catch((thrown: unknown) => thrown);
  expect(error).toBeInstanceOf(SpendingCapReached);
  return error as SpendingCapReached;
}

describe("spending cap settings", () => {
  test.each([
    ["0.50", 0.5],
    ["$2", 2],
    [" .25 ", 0.25],
    ["10.", 10],
  ])("reads %j as %d USD", (text, expected) => {
    expect(parseUsd(text)).toBe(expected);
  });

  test.each(["-1", "abc", "0", "0.00", "1e3", "0x10", "1,50", "1.2.3", ""])("refuses %j", (text) => {
    expect(parseUsd(text)).toBeUndefined();
  });

  test("warns once per setting that is no amount, names it, and sets no cap for it", () => {
    const caps = new SpendingCaps({ MARVIN_MAX_COST: "-1", MARVIN_MAX_DAILY_COST: "lots" }, true);
    expect(caps.warnings).toEqual([
      "MARVIN_MAX_COST=-1 is not an amount in USD above 0 (e.g. 0.50): it is ignored, there is no spending cap.",
      "MARVIN_MAX_DAILY_COST=lots is not an amount in USD above 0 (e.g. 0.50): it is ignored, there is no daily " +
        "spending cap.",
    ]);
    expect(caps.active).toBe(false);
  });

  test("takes an empty setting for no setting, without a warning", () => {
    const caps = new SpendingCaps({ MARVIN_MAX_COST: " " }, true);
    expect(caps.warnings).toEqual([]);
    expect(caps.active).toBe(false);
  });
});

describe("spending cap check", () => {
  test("lets a request through below the cap and never reads today's spending without a daily cap", async () => {
    const caps = new SpendingCaps({ MARVIN_MAX_COST: "0.50" }, false);
    const { asked, spending: below } = spending(0.4999);
    await caps.check(below);
    expect(asked.count).toBe(0);
  });

  test("stops a non-interactive run at the cap, naming the setting and the amounts", async () => {
    const caps = new SpendingCaps({ MARVIN_MAX_COST: "0.50" }, false);
    expect((await refusal(caps, 0.5)).message).toBe(
      "This conversation has cost $0.50, at MARVIN_MAX_COST=$0.50; Marvin stopped before the next request. " +
        "Raise MARVIN_MAX_COST to go on.",
    );
    expect((await refusal(caps, 0.5212)).message).toMatch(/^This conversation has cost \$0\.5212, over /);
  });

  test("tells an interactive user how to raise the cap, with an amount above what is spent", async () => {
    const caps = new SpendingCaps({ MARVIN_MAX_COST: "0.50" }, true);
    expect((await refusal(caps, 0.52)).message).toBe(
      "This conversation has cost $0.52, over its cap of $0.50 (MARVIN_MAX_COST); Marvin stopped before the next " +
        'request. Type "cap 1.00" to raise it, then send a message to go on.',
    );
    expect((await refusal(caps, 1.3)).message).toContain('Type "cap 1.80" to raise it');
  });

  test("counts today's spending against the daily cap", async () => {
    const caps = new SpendingCaps({ MARVIN_MAX_DAILY_COST: "5" }, true);
    await caps.check(spending(0, 4.99).spending);
    expect((await refusal(caps, 0, 5.01)).message).toBe(
      "Today's LLM requests have cost $5.01, over the daily cap of $5.00 (MARVIN_MAX_DAILY_COST); Marvin stopped " +
        'before the next request. Type "cap daily 10.00" to raise it for this session, then send a message to go on.',
    );
    const headless = new SpendingCaps({ MARVIN_MAX_DAILY_COST: "5" }, false);
    expect((await refusal(headless, 0, 5)).message).toContain(
      "at MARVIN_MAX_DAILY_COST=$5.00; Marvin stopped before the next request. Raise MARVIN_MAX_DAILY_COST to go on.",
    );
  });

  test("uses a cap set with the cap command, and MARVIN_MAX_COST again for a new conversation", async () => {
    const caps = new SpendingCaps({ MARVIN_MAX_COST: "0.50" }, true);
    caps.set("conversation", 2);
    expect(caps.describe("conversation")).toBe("$2.00 (set with cap)");
    await caps.check(spending(1.5).spending);
    expect((await refusal(caps, 2)).message).toContain("at its cap of $2.00 (set with cap)");
    caps.set("conversation", undefined);
    expect(caps.active).toBe(false);
    await caps.check(spending(100).spending);
    caps.newConversation();
    expect(caps.describe("conversation")).toBe("$0.50 (MARVIN_MAX_COST)");
    expect(caps.describe("daily")).toBe("no cap");
  });
});

const lookup = lookupTool;

/** One million input tokens of the test model, gpt-4o-mini: $0.15. */
const MILLION_IN = { prompt: 1_000_000, completion: 0 };
const LOOKUP_CALL: Script = { toolCalls: [{ name: "lookup", arguments: {} }], usage: MILLION_IN };

interface Started {
  session: Session;
  server: LlmServer;
  events: AgentEvent[];
}

const test = base.extend<{
  startSession: (script: Script[], options?: Partial<TestSessionOptions>) => Promise<Started>;
}>({
  startSession: async ({ home, llm }, use) => {
    const sessions: Session[] = [];
    await use(async (script, options = {}) => {
      const server = await llm(script);
      const session = createTestSession({ home, llmUrl: server.url, tools: [lookup], ...options });
      sessions.push(session);
      const events: AgentEvent[] = [];
      session.subscribe((event) => events.push(event));
      await session.start();
      return { session, server, events };
    });
    await Promise.all(sessions.map((session) => session.close()));
  },
});

const errorsOf = (events: AgentEvent[]) => events.flatMap((event) => (event.type === "error" ? [event.message] : []));

async function writeUsage(home: string, usage: unknown): Promise<string> {
  const path = configPaths(home).usage;
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(usage));
  return path;
}

describe("Session with a conversation cap", () => {
  test("stops before the request that would pass MARVIN_MAX_COST, and goes on once the cap is raised", async ({
    startSession,
  }) => {
    const { session, server, events } = await startSession([LOOKUP_CALL, { text: "Found it." }], {
      env: { MARVIN_MAX_COST: "0.10" },
    });
    const stopped = await session.submit("look it up");
    expect(stopped.reason).toBe("error");
    expect(server.requests).toHaveLength(1);
    expect(events.filter((event) => event.type === "tool_end")).toHaveLength(1);
    expect(errorsOf(events)).toEqual([
      "This conversation has cost $0.15, over its cap of $0.10 (MARVIN_MAX_COST); Marvin stopped before the next " +
        'request. Type "cap 0.20" to raise it, then send a message to go on.',
    ]);
    expect(events.at(-1)).toMatchObject({ type: "agent_end", reason: "error" });

    session.spending.caps.set("conversation", 0.2);
    expect(await session.submit("go on")).toMatchObject({ reason: "done", text: "Found it." });
    expect(server.requests).toHaveLength(2);
  });

  test("counts the compaction summary: the answer after a summary that passed the cap is not asked for", async ({
    startSession,
    workspace: workingDir,
  }) => {
    const budget = new ContextBudget({ warn: 15_000, compact: 15_000, hard: 1_000_000 });
    const { session, server, events } = await startSession([{ text: "Summary.", usage: MILLION_IN }], {
      env: { MARVIN_MAX_COST: "0.10" },
      codingMode: true,
      workingDir,
      budget,
    });
    fillConversation(session);
    expect((await session.submit("next question")).reason).toBe("error");
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.body.messages[0]!.content).toMatch(/^You compress conversations\./);
    expect(errorsOf(events)).toEqual([expect.stringMatching(/^This conversation has cost \$0\.15, over its cap/)]);
  });

  test("does not compact a conversation past its cap: no summary is asked for, nothing is rewritten", async ({
    startSession,
    workspace: workingDir,
  }) => {
    const budget = new ContextBudget({ warn: 15_000, compact: 15_000, hard: 1_000_000 });
    const { session, server } = await startSession([{ text: "Expensive.", usage: MILLION_IN }], {
      env: { MARVIN_MAX_COST: "0.10" },
      codingMode: true,
      workingDir,
      budget,
    });
    expect((await session.submit("first")).reason).toBe("done");
    fillConversation(session);
    const before = session.messages.length;
    expect((await session.submit("second")).reason).toBe("error");
    expect(server.requests).toHaveLength(1);
    expect(session.messages).toHaveLength(before + 1); // the new message, nothing condensed
    expect(await readdir(workingDir)).toEqual([]); // no context backup
  });

  test("counts a new conversation (clear) from zero, with MARVIN_MAX_COST again", async ({ startSession }) => {
    const { session, server } = await startSession(
      [
        { text: "One.", usage: MILLION_IN },
        { text: "Two.", usage: MILLION_IN },
      ],
      { env: { MARVIN_MAX_COST: "0.10" } },
    );
    await session.submit("first");
    session.spending.caps.set("conversation", 5);
    await session.startNewConversation();
    expect(session.spending.conversationCost).toBe(0);
    expect(await session.submit("again")).toMatchObject({ reason: "done", text: "Two." });
    expect((await session.submit("once more")).reason).toBe("error");
    expect(server.requests).toHaveLength(2);
  });

  test("tells a non-interactive run to raise the setting", async ({ startSession }) => {
    const { session, events } = await startSession([LOOKUP_CALL], {
      env: { MARVIN_MAX_COST: "0.10" },
      nonInteractive: true,
    });
    await session.submit("look it up");
    expect(errorsOf(events)).toEqual([
      "This conversation has cost $0.15, over MARVIN_MAX_COST=$0.10; Marvin stopped before the next request. Raise " +
        "MARVIN_MAX_COST to go on.",
    ]);
  });

  test("warns at start about a setting that is no amount, and then sets no cap", async ({ startSession }) => {
    const { session, server, events } = await startSession([LOOKUP_CALL, { text: "Found it." }], {
      env: { MARVIN_MAX_COST: "ten dollars" },
    });
    expect(events).toEqual([
      {
        type: "notice",
        level: "warning",
        text: expect.stringMatching(/^MARVIN_MAX_COST=ten dollars is not an amount in USD above 0/),
      },
    ]);
    expect((await session.submit("look it up")).reason).toBe("done");
    expect(server.requests).toHaveLength(2);
  });
});

describe("Session with a daily cap", () => {
  test("counts usage.json's today plus this session, not earlier days, and saves today's total", async ({
    startSession,
    home,
  }) => {
    const today = new Date();
    const yesterday = localDay(new Date(today.getFullYear(), today.getMonth(), today.getDate() - 1));
    const path = await writeUsage(home, { sessions: 3, daily_cost: { [localDay(today)]: 0.9, [yesterday]: 7 } });
    const { session, server, events } = await startSession([LOOKUP_CALL, { text: "Found it." }], {
      env: { MARVIN_MAX_DAILY_COST: "1" },
    });
    expect((await session.submit("look it up")).reason).toBe("error");
    expect(server.requests).toHaveLength(1);
    expect(errorsOf(events)).toEqual([
      expect.stringMatching(/^Today's LLM requests have cost \$1\.05, over the daily cap of \$1\.00 \(MARVIN_MAX/),
    ]);
    expect(await session.spending.spentToday()).toBe(1.05);

    await session.dispose();
    const saved = JSON.parse(await readFile(path, "utf8"));
    expect(saved.daily_cost).toEqual({ [localDay(today)]: 1.05, [yesterday]: 7 });
  });

  test("refuses the first request when earlier sessions spent today's cap already", async ({ startSession, home }) => {
    await writeUsage(home, { daily_cost: { [localDay(new Date())]: 2 } });
    const { session, server } = await startSession([{ text: "never" }], { env: { MARVIN_MAX_DAILY_COST: "2" } });
    expect((await session.submit("hello")).reason).toBe("error");
    expect(server.requests).toHaveLength(0);
  });
});
