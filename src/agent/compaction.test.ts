import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "../../tests/support/fixtures.js";
import { type ChatScript, ScriptedChat } from "../../tests/support/scripted-chat.js";
import { finalAnswer } from "../providers/final-answer.js";
import type { Message } from "../providers/types.js";
import { writeConversationBackup } from "../session/conversation-backup.js";
import { compactMessages, KEEP_RECENT_MESSAGES, shortenToolResults } from "./compaction.js";

/** A summariser that asks a scripted model, as the session does; `model.requests` shows what it sent. */
function summarizerFor(script: ChatScript[]) {
  const model = new ScriptedChat(script);
  const summarize = async (transcript: string) => {
    const messages: Message[] = [
      { role: "system", content: "Summarise." },
      { role: "user", content: transcript },
    ];
    return (await finalAnswer(model.stream({ messages, tools: [] }))).content;
  };
  return { summarize, model };
}

function exchange(index: number): Message[] {
  return [
    { role: "user", content: `question ${index}` },
    {
      role: "assistant",
      content: null,
      tool_calls: [
        { id: `call_${index}`, type: "function", function: { name: "web_search", arguments: `{"query":"q${index}"}` } },
      ],
    },
    { role: "tool", tool_call_id: `call_${index}`, content: `result ${index}` },
    { role: "assistant", content: `answer ${index}` },
  ];
}

function conversation(exchanges: number): Message[] {
  return [
    { role: "system", content: "You are Marvin." },
    ...Array.from({ length: exchanges }, (_, index) => exchange(index + 1)).flat(),
  ];
}

/** Every tool result must follow an assistant message that made the call. */
function orphanedToolResults(messages: readonly Message[]): string[] {
  const called = new Set<string>();
  const orphans: string[] = [];
  for (const message of messages) {
    if (message.role === "assistant") for (const call of message.tool_calls ?? []) called.add(call.id);
    if (message.role === "tool" && !called.has(message.tool_call_id)) orphans.push(message.tool_call_id);
  }
  return orphans;
}

describe("compactMessages", () => {
  test("backs up every message, keeps the system message and the last 8, and summarises the middle", async ({
    home,
  }) => {
    const { summarize, model } = summarizerFor([{ text: "The user asked five questions about search." }]);
    const messages = conversation(5); // 1 + 20 messages; the last 8 start on a user message
    const now = new Date("2025-02-15T12:34:56.789Z");
    const backUp = (all: readonly Message[]) => writeConversationBackup(join(home, ".marvin", "logs"), all, now);
    const result = await compactMessages(messages, { backUp, summarize });

    expect(result.backupPath).toBe(join(home, ".marvin", "logs", "context-backup-2025-02-15T12-34-56-789Z.jsonl"));
    const backup = (await readFile(result.backupPath!, "utf8"))
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(backup).toEqual(messages);
    expect((await stat(result.backupPath!)).mode & 0o777).toBe(0o600);
    expect((await stat(join(home, ".marvin", "logs"))).mode & 0o777).toBe(0o700);

    expect(result.messages).toHaveLength(1 + 1 + KEEP_RECENT_MESSAGES);
    expect(result.messages[0]).toBe(messages[0]);
    expect(result.messages[1]).toEqual({
      role: "system",
      content:
        `[Compacted history summary — full text in ${result.backupPath}]\nThe user asked five questions ` +
        `about search.`,
    });
    expect(result.messages.slice(2)).toEqual(messages.slice(-KEEP_RECENT_MESSAGES));

    const transcript = model.requests[0]!.messages[1]!.content!;
    expect(transcript).toContain("user: question 1");
    expect(transcript).toContain('assistant: web_search{"query":"q3"}');
    expect(transcript).toContain("tool: result 3");
    expect(transcript).not.toContain("question 4");
  });

  test("never starts the kept tail on a tool result whose call would be dropped", async ({ home }) => {
    const { summarize } = summarizerFor([{ text: "summary" }]);
    const messages: Message[] = [
      ...conversation(4),
      { role: "user", content: "last question" },
      { role: "assistant", content: "last answer" },
    ];
    expect(messages.at(-KEEP_RECENT_MESSAGES)!.role).toBe("tool");
    const result = await compactMessages(messages, { backUp: (all) => writeConversationBackup(home, all), summarize });
    expect(orphanedToolResults(result.messages)).toEqual([]);
    expect(result.messages[2]).toMatchObject({ role: "assistant", tool_calls: [{ id: "call_3" }] });
    expect(result.messages.slice(2)).toEqual(messages.slice(-KEEP_RECENT_MESSAGES - 1));
  });

  test("leaves a short conversation alone and writes no backup", async ({ home }) => {
    const { summarize, model } = summarizerFor([]);
    const messages = conversation(2); // 9 messages: nothing between the system message and the last 8
    const result = await compactMessages(messages, {
      backUp: (all) => writeConversationBackup(join(home, "logs"), all),
      summarize,
    });
    expect(result).toEqual({ messages });
    expect(await readdir(home)).toEqual([]);
    expect(model.requests).toHaveLength(0);
  });

  test("falls back to a plain list of requests and tools when the summariser fails", async ({ home }) => {
    const { summarize } = summarizerFor([{ error: { kind: "server", message: "scripted HTTP 500", status: 500 } }]);
    const result = await compactMessages(conversation(4), {
      backUp: (all) => writeConversationBackup(home, all),
      summarize,
    });
    const summary = (result.messages[1] as { content: string }).content;
    expect(summary).toContain("Earlier requests:\n- question 1\n- question 2");
    expect(summary).toContain("Tools used: web_search");
  });

  test("never overwrites an earlier backup (history only grows)", async ({ home }) => {
    const { summarize } = summarizerFor([{ text: "one" }, { text: "two" }]);
    const now = new Date("2025-01-01T00:00:00.000Z");
    const first = await compactMessages(conversation(3), {
      backUp: (all) => writeConversationBackup(home, all, now),
      summarize,
    });
    const second = await compactMessages(conversation(4), {
      backUp: (all) => writeConversationBackup(home, all, now),
      summarize,
    });
    expect(first.backupPath).not.toBe(second.backupPath);
    expect((await readdir(home)).sort()).toEqual([
      "context-backup-2025-01-01T00-00-00-000Z-1.jsonl",
      "context-backup-2025-01-01T00-00-00-000Z.jsonl",
    ]);
    expect((await readFile(first.backupPath!, "utf8")).trimEnd().split("\n")).toHaveLength(13);
  });

  test("shortens huge tool results in the transcript it sends to the summariser", async ({ home }) => {
    const { summarize, model } = summarizerFor([{ text: "ok" }]);
    const messages = conversation(3);
    (messages[3] as { content: string }).content = "x".repeat(10_000);
    await compactMessages(messages, { backUp: (all) => writeConversationBackup(home, all), summarize });
    const transcript = model.requests[0]!.messages[1]!.content!;
    expect(transcript).toContain(`tool: ${"x".repeat(2_000)} […]`);
    expect(transcript).not.toContain("x".repeat(2_001));
  });
});

describe("shortenToolResults", () => {
  test("keeps the head and tail of oversized tool results and says where the full text is", () => {
    const huge = `START${"x".repeat(50_000)}END`;
    const messages: Message[] = [
      { role: "system", content: "s" },
      { role: "tool", tool_call_id: "a", content: huge },
      { role: "tool", tool_call_id: "b", content: "small" },
      { role: "user", content: "y".repeat(50_000) },
    ];
    expect(shortenToolResults(messages, "/backups/context-backup-1.jsonl", 1_000)).toBe(1);
    const shortened = messages[1]!.content as string;
    expect(shortened.length).toBeLessThan(1_200);
    expect(shortened.startsWith("START")).toBe(true);
    expect(shortened.endsWith("END")).toBe(true);
    expect(shortened).toContain("/backups/context-backup-1.jsonl");
    expect(messages[2]!.content).toBe("small");
    expect(messages[3]!.content).toHaveLength(50_000);
  });
});
