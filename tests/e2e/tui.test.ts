import { existsSync, readFileSync, writeFileSync, chmodSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it, type TestContext } from "vitest";
import { startLlmServer, type LlmServer, type Script } from "../support/llm-server.js";
import { serverEnv, tempDir } from "../support/run-marvin.js";
import { TmuxMarvin, tmuxAvailable } from "../support/tmux.js";

beforeAll(async () => {
  if (!(await tmuxAvailable())) throw new Error("tmux is needed for the TUI end-to-end tests: apt-get install -y tmux");
});

interface Run {
  marvin: TmuxMarvin;
  server: LlmServer;
  home: string;
  /** Entries of the profile's chat_log.json. */
  chatLog(): Array<{ role: string; text: string }>;
}

interface StartOptions {
  args?: string[];
  env?: Record<string, string>;
  /** Writes files into the home before marvin starts (given the home path). */
  prepare?: (home: string) => void;
}

/** Starts the built marvin full-screen in tmux against a scripted LLM server; waits for the prompt. */
async function start(context: TestContext, script: Script[], options: StartOptions = {}): Promise<Run> {
  const home = tempDir("marvin-tui-home-");
  const server = await startLlmServer(script);
  options.prepare?.(home);
  const marvin = await TmuxMarvin.start({ env: { ...serverEnv(server.url, home, options.env), TERM: "xterm-256color" }, args: options.args, cwd: home });
  context.onTestFinished(async () => {
    await marvin.kill();
    await server.close();
    home.cleanup();
  });
  await marvin.waitFor(/Type help for commands[\s\S]*\n>$/);
  const chatLog = () => JSON.parse(readFileSync(join(home, ".config", "local-finder", "profiles", "main", "chat_log.json"), "utf8"));
  return { marvin, server, home: home, chatLog };
}

describe.concurrent("marvin full-screen TUI in a real terminal (tmux)", () => {
  it("runs a full turn with a tool round, then quits and gives the terminal back", async (context) => {
    const { marvin, server, home, chatLog } = await start(context, [
      { text: "Starting it.", toolCalls: [{ name: "timer_start", arguments: { name: "tea", duration_seconds: 180 } }] },
      { text: "Your **tea** timer runs for 3 minutes.", usage: { prompt: 2000, completion: 100 } },
    ]);
    expect((await marvin.screen())[0]).toMatch(/^ 🔌 openai-compat · gpt-4o-mini │ 👤 main │ 0 msgs │ \$0\.0000 │ +○ ready/);
    await marvin.submit("set a tea timer");
    const screen = await marvin.waitFor("Your tea timer runs for 3 minutes.");
    expect(screen).toMatch(/You · \d\d:\d\d\nset a tea timer\n\nMarvin · \d\d:\d\d\nStarting it\.\n🔧 timer_start\n {3}↳ timer_start: Countdown 'tea' started: 3m 00s\.\nYour tea timer runs for 3 minutes\./);
    await marvin.waitFor(/2 msgs │ \$0\.\d{4} │ +○ ready/);
    await marvin.submit("quit");
    const after = await marvin.waitFor("MARVIN_EXITED=0");
    expect(after).not.toContain("openai-compat");
    expect(chatLog().map((entry) => entry.role)).toEqual(["you", "assistant"]);
    expect(server.requests).toHaveLength(2);
  });

  it("shows the recent conversation on start and scrolls with PgUp/PgDn, Shift+↑ and the wheel", async () => {
    const answer = Array.from({ length: 50 }, (_, index) => `Row ${index + 1}.`).join("\n\n");
    writeFileSync(join(home, "seed.txt"), "");
    const marvin = await start([{ text: answer, chunkSize: 50 }]);
    await marvin.submit("count to fifty");
    await marvin.waitFor("Row 50.");
    await marvin.waitFor("○ ready");
    await marvin.press("PPage");
    const up = await marvin.waitFor(/↓ \d+ more lines/);
    expect(up).not.toContain("Row 50.");
    const firstRow = (screen: string) => Number(/Row (\d+)\./.exec(screen)![1]);
    const pagedTo = firstRow(up);
    await marvin.press("S-Up");
    await marvin.waitFor(`Row ${pagedTo - 1}.`);
    const shifted = firstRow(await marvin.text());
    await marvin.type("\x1b[<64;10;10M");
    await marvin.waitFor(`Row ${shifted - 1}.`);
    await marvin.press("NPage", "NPage", "NPage", "NPage", "NPage");
    const bottom = await marvin.waitFor("Row 50.");
    expect(bottom.split("\n")[0]).not.toContain("more lines");
    await marvin.submit("exit");
    await marvin.waitFor("MARVIN_EXITED=0");

    tui = await TmuxMarvin.start({ env: { ...serverEnv(server.url, home), TERM: "xterm-256color" }, cwd: home });
    const restarted = await tui.waitFor("── end of recent conversation ──");
    expect(restarted).toContain("Row 50.");
    await tui.press("C-Home");
    const top = await tui.waitFor("[System] ── Recent conversation (2 of 2 messages) ──");
    expect(top).toMatch(/You · \d\d:\d\d\ncount to fifty\n\nMarvin · \d\d:\d\d\nRow 1\./);
  });

  it("runs slash commands and shell mode", async (context) => {
    const { marvin, server, home, chatLog } = await start(context, []);
    await marvin.submit("usage");
    await marvin.waitFor("This session: $0.0000");
    await marvin.submit("!sh");
    await marvin.waitFor("Shell mode ON");
    expect((await marvin.screen())[0]).toMatch(/│ shell │ +○ ready/);
    expect((await marvin.screen()).at(-1)).toBe("$");
    await marvin.submit("echo shell-says-$((6 * 7))");
    await marvin.waitFor(/\$ echo shell-says-\$\(\(6 \* 7\)\)\nshell-says-42/);
    await marvin.submit("!sh");
    await marvin.waitFor("Shell mode OFF");
    expect((await marvin.screen()).at(-1)).toBe(">");
    await marvin.submit("!echo one-off");
    await marvin.waitFor(/> !echo one-off\none-off/);
    expect(server.requests).toHaveLength(0);
  });

  it("asks before run_command and shows the exact command", async () => {
    const command = "echo made-by-marvin > made.txt";
    const marvin = await start([{ toolCalls: [{ name: "run_command", arguments: { command } }] }, { text: "The file is there." }], { args: ["--working-dir", home] });
    expect((await marvin.screen())[0]).toContain("│ coding │");
    await marvin.submit("make the file");
    await marvin.waitFor(`Run \`${command}\`? [y/N]`);
    expect(existsSync(join(home, "made.txt"))).toBe(false);
    await marvin.type("y");
    await marvin.waitFor("The file is there.");
    expect(readFileSync(join(home, "made.txt"), "utf8")).toBe("made-by-marvin\n");
    expect(server.requests[1]!.body.messages.at(-1)!.content).toMatch(/^Exit code: 0/);
  });

  it("Ctrl+C stops a streaming answer and keeps the partial text; Ctrl+C when idle exits", async (context) => {
    const { marvin, server, home, chatLog } = await start(context, [{ text: "blah ".repeat(400), chunkSize: 5, delayMs: 20 }, { text: "Still here." }]);
    await marvin.submit("ramble");
    await marvin.waitFor("blah blah blah blah");
    await marvin.press("C-c");
    await marvin.waitFor("[interrupted]");
    await marvin.waitFor("○ ready");
    await marvin.submit("are you there?");
    await marvin.waitFor("Still here.");
    const log = chatLog();
    expect(log[1]!.role).toBe("assistant");
    expect(log[1]!.text.length).toBeGreaterThan(10);
    expect(log[1]!.text.length).toBeLessThan(2000);
    await marvin.waitFor("○ ready");
    await marvin.press("C-c");
    await marvin.waitFor("MARVIN_EXITED=0");
  });

  it("reflows everything when the terminal is resized", async (context) => {
    const { marvin, server, home, chatLog } = await start(context, [{ text: "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen" }]);
    await marvin.submit("count in words");
    await marvin.waitFor("fifteen sixteen");
    await marvin.resize(40, 16);
    const screen = await marvin.waitFor(/^one two three four five six seven eight\nnine ten eleven twelve thirteen\n/m);
    const rows = screen.split("\n");
    expect(rows).toHaveLength(16);
    for (const row of rows) expect(row.length).toBeLessThanOrEqual(40);
    expect(rows.at(-1), screen).toBe(">");
    await marvin.resize(100, 30);
    await marvin.waitFor(/^one two three .* sixteen$/m);
  });

  it("releases the terminal to $EDITOR for preferences, then draws the screen again", async () => {
    const editor = join(home, "editor.sh");
    writeFileSync(editor, '#!/bin/sh\necho "EDITOR IS RUNNING"\nsleep 1\necho "# edited in the test" >> "$1"\n');
    chmodSync(editor, 0o755);
    const marvin = await start([], { env: { EDITOR: editor } });
    await marvin.submit("preferences");
    const during = await marvin.waitFor("EDITOR IS RUNNING");
    expect(during).not.toContain("openai-compat");
    const after = await marvin.waitFor("Preferences saved");
    expect(after.split("\n")[0]).toContain("openai-compat");
    expect(readFileSync(join(home, ".config", "local-finder", "profiles", "main", "preferences.yaml"), "utf8")).toContain("# edited in the test");
    await marvin.press("C-d");
    await marvin.waitFor("MARVIN_EXITED=0");
  });
});
