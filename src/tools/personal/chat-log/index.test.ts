import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "../../../../tests/support/fixtures.js";

const profileDir = (home: string) => join(home, ".config", "local-finder", "profiles", "main");
const chatLogPath = (home: string) => join(profileDir(home), "chat_log.json");

function entries(count: number) {
  return Array.from({ length: count }, (_, index) => ({
    role: index % 2 ? "assistant" : "you",
    text: `entry ${index}: ${"we talked about ramen shops and train times in Tokyo ".repeat(5)}`,
    time: `10:${String(index).padStart(2, "0")}`,
  }));
}

async function writeChatLog(home: string, log: unknown[] | string): Promise<void> {
  await mkdir(profileDir(home), { recursive: true });
  await writeFile(chatLogPath(home), typeof log === "string" ? log : JSON.stringify(log, null, 2));
}

describe("compact_history", () => {
  test("backs up the log, summarises older entries with the LLM and keeps the recent ones", async ({
    harnesses,
    llm,
    home,
  }) => {
    const original = entries(30);
    await writeChatLog(home, original);
    const server = await llm([
      { text: "The user likes ramen and asked about trains in Tokyo.", usage: { prompt: 2000, completion: 20 } },
    ]);
    const harness = await harnesses.open({ home, llmUrl: server.url });
    const outcome = await harness.call("compact_history", { target_tokens: 400 });
    expect(outcome.isError).toBe(false);
    expect(outcome.result).toMatch(
      /^Compacted chat history from \d+ to \d+ tokens: 27 older entries summarised, 3 recent kept\. Backup: .*chat-backup-.*\.json$/,
    );

    const [backupName] = await readdir(join(profileDir(home), "logs"));
    expect(backupName).toMatch(/^chat-backup-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z\.json$/);
    expect(JSON.parse(await readFile(join(profileDir(home), "logs", backupName!), "utf8"))).toEqual(original);
    // The backup is the conversation: owner-only, in an owner-only folder.
    expect((await stat(join(profileDir(home), "logs", backupName!))).mode & 0o777).toBe(0o600);
    expect((await stat(join(profileDir(home), "logs"))).mode & 0o777).toBe(0o700);

    const compacted = JSON.parse(await readFile(chatLogPath(home), "utf8"));
    expect(compacted).toHaveLength(4);
    expect(compacted[0]).toEqual({
      role: "system",
      text: "[Summary of 27 earlier messages]\nThe user likes ramen and asked about trains in Tokyo.",
      time: expect.stringMatching(/^\d\d:\d\d$/),
    });
    expect(compacted.slice(1)).toEqual(original.slice(-3));

    const [instruction, transcript] = server.requests[0]!.body.messages;
    expect(instruction!.content).toContain("Summarise this conversation history in at most 200 tokens");
    expect(transcript!.content).toContain("you [10:00]: entry 0:");
    expect(transcript!.content).toContain("you [10:26]: entry 26:");
    expect(transcript!.content).not.toContain("entry 27:");
    expect(server.requests[0]!.body.tools).toBeUndefined();
    expect(harness.session.usage.getSessionUsage().llm_turns).toBe(1);
  });

  test("does nothing when the history already fits", async ({ harnesses, home }) => {
    await writeChatLog(home, entries(2));
    const harness = await harnesses.open({ home });
    expect((await harness.call("compact_history", {})).result).toMatch(
      /^Chat history is \d+ tokens \(2 entries\), already within 4000\. Nothing to do\.$/,
    );
    expect(await readdir(profileDir(home))).toEqual(["chat_log.json"]); // no backup written
  });

  test("compacts nothing when the log cannot be read, and says why", async ({ harnesses, home }) => {
    await writeChatLog(home, "[{broken");
    // Non-interactive: the session does not load the log at start, so the tool meets the broken file.
    const harness = await harnesses.open({ home, nonInteractive: true });
    const outcome = await harness.call("compact_history", {});
    expect(outcome.result).toMatch(
      /^Could not read .*chat_log\.json: it is not valid JSON.*\nNothing was compacted\.$/s,
    );
  });

  test("refuses a target below 200 tokens", async ({ harnesses, home }) => {
    const harness = await harnesses.open({ home });
    const outcome = await harness.call("compact_history", { target_tokens: 50 });
    expect(outcome.isError).toBe(true);
    expect(outcome.result).toContain("- target_tokens:");
  });
});

describe("search_history_backups", () => {
  async function withBothBackupKinds(home: string, workingDir: string): Promise<void> {
    const contextLogs = join(workingDir, ".marvin", "logs");
    await mkdir(contextLogs, { recursive: true });
    const messages = [
      { role: "system", content: "You are Marvin." },
      { role: "user", content: "Find the Ramen place from last week" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "c1",
            type: "function",
            function: { name: "places_text_search", arguments: '{"query":"ramen Kreuzberg"}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: "Cocolo Ramen, Gormannstraße 26" },
    ];
    await writeFile(
      join(contextLogs, "context-backup-2025-01-01T10-00-00-000Z.jsonl"),
      `${messages.map((message) => JSON.stringify(message)).join("\n")}\n`,
    );
    await mkdir(join(profileDir(home), "logs"), { recursive: true });
    await writeFile(
      join(profileDir(home), "logs", "chat-backup-2025-01-02T10-00-00-000Z.json"),
      JSON.stringify([{ role: "you", text: "I loved that ramen in Tokyo", time: "19:45" }]),
    );
    await writeFile(join(profileDir(home), "logs", "unrelated.txt"), "ramen everywhere");
  }

  test("finds text in context backups (JSONL) and chat backups (JSON), case-insensitively", async ({
    harnesses,
    home,
    workspace: workingDir,
  }) => {
    await withBothBackupKinds(home, workingDir);
    const harness = await harnesses.open({ home, codingMode: true, workingDir });
    const content = (await harness.call("search_history_backups", { query: "RAMEN" })).result;
    const lines = content.split("\n");
    expect(lines[0]).toBe("4 match(es) for 'RAMEN':");
    expect(content).toContain("- [user] Find the Ramen place from last week");
    expect(content).toContain('"arguments":"{\\"query\\":\\"ramen Kreuzberg\\"}"');
    expect(content).toContain("- [tool] Cocolo Ramen, Gormannstraße 26");
    expect(content).toContain("- [you 19:45] I loved that ramen in Tokyo");
    expect(content).toContain(join(workingDir, ".marvin", "logs", "context-backup-2025-01-01T10-00-00-000Z.jsonl"));
    expect(content).toContain(join(profileDir(home), "logs", "chat-backup-2025-01-02T10-00-00-000Z.json"));
    expect(content).not.toContain("unrelated.txt");
  });

  test("stops at max_results", async ({ harnesses, home, workspace: workingDir }) => {
    await withBothBackupKinds(home, workingDir);
    const harness = await harnesses.open({ home, codingMode: true, workingDir });
    expect(
      (await harness.call("search_history_backups", { query: "ramen", max_results: 1 })).result.split("\n")[0],
    ).toBe("1 match(es) for 'ramen':");
  });

  test("says when nothing matches, or when there are no backups yet", async ({
    harnesses,
    home,
    workspace: workingDir,
  }) => {
    const harness = await harnesses.open({ home });
    expect((await harness.call("search_history_backups", { query: "sushi" })).result).toBe(
      `No history backups exist yet (looked in ${join(profileDir(home), "logs")}).`,
    );
    await harness.close();
    await withBothBackupKinds(home, workingDir);
    const coding = await harnesses.open({ home, codingMode: true, workingDir });
    expect((await coding.call("search_history_backups", { query: "sushi" })).result).toBe(
      "No matches for 'sushi' in 2 backup file(s).",
    );
  });

  test("finds what compact_history backed up", async ({ harnesses, llm, home }) => {
    await writeChatLog(home, entries(30));
    const server = await llm([{ text: "summary" }]);
    const harness = await harnesses.open({ home, llmUrl: server.url });
    await harness.call("compact_history", { target_tokens: 400 });
    const content = (await harness.call("search_history_backups", { query: "entry 5:" })).result;
    expect(content).toMatch(/^1 match\(es\) for 'entry 5:':\n- \[assistant 10:05\] entry 5: we talked about ramen/);
  });
});
