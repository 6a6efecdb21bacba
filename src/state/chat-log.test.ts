import { execFileSync, spawnSync } from "node:child_process";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test as base, describe, expect } from "../../tests/support/fixtures.js";
import { appendChatLog, type ChatLogEntry, clockTime, loadChatLog, saveChatLog } from "./chat-log.js";

/** Where a profile's chat log lives, in a fresh temp folder. */
const test = base.extend<{ path: string }>({
  path: async ({ tempDirs }, use) =>
    use(join(await tempDirs.make("marvin-chatlog-"), "profiles", "main", "chat_log.json")),
});

const hasPython = spawnSync("python3", ["--version"]).status === 0;

describe("clockTime", () => {
  test("formats local time as HH:MM", () => {
    expect(clockTime(new Date(2025, 5, 1, 7, 3))).toBe("07:03");
    expect(clockTime(new Date(2025, 5, 1, 23, 59, 59))).toBe("23:59");
    expect(clockTime()).toMatch(/^\d\d:\d\d$/);
  });
});

describe("chat_log.json", () => {
  test("appends entries with the original's roles (you, assistant, system) and keeps earlier ones", async ({
    path,
  }) => {
    await appendChatLog(path, [{ role: "you", text: "Where is good ramen?", time: "12:01" }]);
    await appendChatLog(path, [
      { role: "assistant", text: "Try Ichiran.", time: "12:02" },
      { role: "system", text: "Switched to profile 'ada'.", time: "12:03" },
    ]);
    const raw = JSON.parse(await readFile(path, "utf8"));
    expect(raw).toEqual([
      { role: "you", text: "Where is good ramen?", time: "12:01" },
      { role: "assistant", text: "Try Ichiran.", time: "12:02" },
      { role: "system", text: "Switched to profile 'ada'.", time: "12:03" },
    ]);
    expect((await loadChatLog(path)).value).toEqual(raw);
  });

  test.skipIf(!hasPython)("is readable by Python's json module exactly as the original expects", async ({ path }) => {
    const entries: ChatLogEntry[] = [
      { role: "you", text: 'Quotes " and unicode — ☕ and\nnewlines', time: "09:00" },
      { role: "assistant", text: "ok", time: "09:01" },
    ];
    await saveChatLog(path, entries);
    const script =
      "import json,sys\nlog=json.load(open(sys.argv[1]))\nprint(json.dumps([[sorted(e.keys()), e['role'], e['text'], " +
      "e['time']] for e in log]))";
    const output = JSON.parse(execFileSync("python3", ["-c", script, path], { encoding: "utf8" }));
    expect(output).toEqual([
      [["role", "text", "time"], "you", 'Quotes " and unicode — ☕ and\nnewlines', "09:00"],
      [["role", "text", "time"], "assistant", "ok", "09:01"],
    ]);
  });

  test("reads a log written by the Python original (compact JSON, extra fields kept)", async ({ path }) => {
    await saveChatLog(path, []);
    await writeFile(
      path,
      '[{"role": "you", "text": "hi", "time": "08:00"}, {"role": "assistant", "text": "hello", "time": "08:00", ' +
        '"tools": ["web_search"]}]',
    );
    expect((await loadChatLog(path)).value).toEqual([
      { role: "you", text: "hi", time: "08:00" },
      { role: "assistant", text: "hello", time: "08:00", tools: ["web_search"] },
    ]);
  });

  test("moves a corrupt log aside, warns, and starts a new one without losing the old", async ({ path }) => {
    await saveChatLog(path, []);
    await writeFile(path, '[{"role": "you", "text": "unfinished');
    const warning = await appendChatLog(path, [{ role: "you", text: "new", time: "10:00" }]);
    expect(warning).toMatch(/Could not read .*chat_log\.json: it is not valid JSON/);
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual([{ role: "you", text: "new", time: "10:00" }]);
    const directory = join(path, "..");
    const aside = (await readdir(directory)).find((name) => name.startsWith("chat_log.json.corrupt-"))!;
    expect(await readFile(join(directory, aside), "utf8")).toBe('[{"role": "you", "text": "unfinished');
  });

  test("rejects entries without a string role or text as the wrong structure", async ({ path }) => {
    await saveChatLog(path, []);
    await writeFile(path, '[{"role": "you"}]');
    const loaded = await loadChatLog(path);
    expect(loaded.value).toEqual([]);
    expect(loaded.warning).toContain("does not have the expected structure");
  });
});
