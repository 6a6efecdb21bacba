import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { WELCOME_HINT } from "../../src/ui/commands/welcome-hint.js";
import { test as base, describe, expect } from "../support/fixtures.js";
import { type LlmServer, type Script, userWords } from "../support/llm-server.js";
import { runMarvin, serverEnv } from "../support/run-marvin.js";
import { TmuxMarvin, tmuxAvailable } from "../support/tmux.js";

beforeAll(async () => {
  if (!(await tmuxAvailable())) throw new Error("tmux is needed for the TUI end-to-end tests: apt-get install -y tmux");
});

/** Homes of every marvin started here: none may be left behind (a late usage.json write once recreated them). */
const homesUsed: string[] = [];
afterAll(() => {
  expect(homesUsed.filter((home) => existsSync(home))).toEqual([]);
});

interface Run {
  marvin: TmuxMarvin;
  server: LlmServer;
  home: string;
  /** Entries of the profile's chat_log.json. */
  chatLog(): Array<{ role: string; text: string }>;
  /** Starts marvin again in a second terminal, same home and server. */
  restart(): Promise<TmuxMarvin>;
}

interface StartOptions {
  args?: string[];
  env?: Record<string, string>;
  /** Records every byte marvin writes to the terminal here. */
  outputFile?: string;
}

/**
 * `start(script, options)`: the built marvin, full-screen in its own tmux server, against its own
 * scripted LLM server and home; everything is stopped after the test. Waits for the input prompt.
 */
const test = base.extend<{ start: (script: Script[], options?: StartOptions) => Promise<Run> }>({
  start: async ({ home, llm }, use) => {
    homesUsed.push(home);
    const terminals: TmuxMarvin[] = [];
    await use(async (script, options = {}) => {
      const server = await llm(script);
      const launch = async () => {
        const terminal = await TmuxMarvin.start({
          env: { ...serverEnv(server.url, home, options.env), TERM: "xterm-256color" },
          args: options.args,
          cwd: home,
          outputFile: options.outputFile,
        });
        terminals.push(terminal);
        await terminal.waitFor(/^ 🔌 .*○ ready[\s\S]*\n>$/);
        return terminal;
      };
      const marvin = await launch();
      return {
        marvin,
        server,
        home,
        chatLog: () =>
          JSON.parse(readFileSync(join(home, ".config", "local-finder", "profiles", "main", "chat_log.json"), "utf8")),
        restart: launch,
      };
    });
    for (const terminal of terminals) await terminal.kill();
  },
});

/** Escape sequences a hostile page, file or model might carry: clipboard write, window title, clear screen (7- and 8-bit). */
const INJECTED = "\x1b]52;c;cHduZWQ=\x07\x1b]0;pwned\x07\u009d0;pwned\u009c\x1b[2J\u009b2J";

describe("marvin full-screen TUI in a real terminal (tmux)", () => {
  test("writes no escape sequence that came from the model, a tool result or a saved title to the terminal", async ({
    start,
    home,
    llm,
    tempDirs,
  }) => {
    const project = await tempDirs.make("marvin-tui-escapes-");
    writeFileSync(join(project, "feed.xml"), `${INJECTED}Quarterly feed\n<item/>\n`);
    // An earlier conversation whose title (its first message) carries them too.
    const earlier = await llm([{ text: "Noted." }]);
    await runMarvin(["--plain"], { env: serverEnv(earlier.url, home), cwd: home, stdin: `${INJECTED}Evil title\n` });
    const outputFile = join(await tempDirs.make("marvin-tui-output-"), "terminal.out");
    const { marvin } = await start(
      [
        { toolCalls: [{ name: "read_file", arguments: { path: "feed.xml" } }] },
        { text: `Read it.${INJECTED}WIPED and done.` },
      ],
      { args: ["--working-dir", project], outputFile },
    );
    await marvin.submit("read the feed");
    await marvin.waitFor("WIPED and done.");
    expect(await marvin.text()).toMatch(/✓ read_file {2}feed\.xml · \d+\.\ds · .*Quarterly feed/);
    await marvin.submit("sessions");
    await marvin.waitFor(/ 2\. Evil title\n/);
    await marvin.submit("quit");
    await marvin.waitFor("MARVIN_EXITED=0");
    const written = readFileSync(outputFile, "utf8");
    expect(written).toContain("Quarterly feed");
    expect(written).not.toContain("pwned");
    expect(written).not.toContain("\x1b]");
    expect(written).not.toContain("\x07");
    expect(written).not.toContain("\x1b[2JWIPED");
    expect(written).not.toMatch(/[\u0080-\u009f]/);
  });

  test("runs a full turn with a tool round, then quits and gives the terminal back", async ({ start }) => {
    const { marvin, server, chatLog } = await start([
      { text: "Starting it.", toolCalls: [{ name: "timer_start", arguments: { name: "tea", duration_seconds: 180 } }] },
      { text: "Your **tea** timer runs for 3 minutes.", usage: { prompt: 2000, completion: 100 } },
    ]);
    expect((await marvin.screen())[0]).toMatch(
      /^ 🔌 openai-compat · gpt-4o-mini │ 👤 main │ 0 msgs │ \$0\.0000 │ +○ ready/,
    );
    // Wrapped to the terminal's width; the benchmarks wait for this hint (bench/tui-stream.ts).
    expect((await marvin.screen()).join("\n").replace(/\s+/g, " ")).toContain(WELCOME_HINT);
    await marvin.submit("set a tea timer");
    const screen = await marvin.waitFor("Your tea timer runs for 3 minutes.");
    expect(screen).toMatch(
      /You · \d\d:\d\d\nset a tea timer\n\nMarvin · \d\d:\d\d\nStarting it\.\n✓ timer_start {2}"tea" · \d+\.\ds · Countdown 'tea' started: 3m 00s\.\nYour tea timer runs for 3 minutes\./,
    );
    await marvin.waitFor(/2 msgs │ \$0\.\d{4} │ ctx 2\.1k\/200k │ +○ ready/);
    await marvin.submit("quit");
    const after = await marvin.waitFor("MARVIN_EXITED=0");
    expect(after).not.toContain("openai-compat");
    expect(chatLog().map((entry) => entry.role)).toEqual(["you", "assistant"]);
    expect(server.requests).toHaveLength(2);
  });

  test(
    "scrolls with PgUp/PgDn, Shift+↑ and the wheel, and shows the recent conversation on the " + "next start",
    async ({ start }) => {
      const answer = Array.from({ length: 50 }, (_, index) => `Row ${index + 1}.`).join("\n\n");
      const { marvin, restart } = await start([{ text: answer, chunkSize: 50 }]);
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

      const again = await restart();
      const restarted = await again.waitFor("── end of recent conversation ──");
      expect(restarted).toContain("Row 50.");
      await again.press("C-Home");
      const top = await again.waitFor("[System] ── Recent conversation (2 of 2 messages) ──");
      expect(top).toMatch(/You · \d\d:\d\d\ncount to fifty\n\nMarvin · \d\d:\d\d\nRow 1\./);
    },
  );

  test("shows the untrusted-project MCP notice under a long recent conversation, where it stays in sight", async ({
    start,
    home,
    tempDirs,
  }) => {
    const project = await tempDirs.make("marvin-tui-untrusted-");
    mkdirSync(join(project, ".marvin"));
    writeFileSync(join(project, ".marvin", "mcp.json"), JSON.stringify({ mcpServers: { tool: { command: "true" } } }));
    const profile = join(home, ".config", "local-finder", "profiles", "main");
    mkdirSync(profile, { recursive: true });
    const long = (index: number) => `Line ${index} ${"of a long earlier conversation ".repeat(8)}`;
    const log = Array.from({ length: 10 }, (_, index) => ({
      role: index % 2 ? "assistant" : "you",
      text: long(index),
      time: "09:00",
    }));
    writeFileSync(join(profile, "chat_log.json"), JSON.stringify(log));
    const { marvin } = await start([], { args: ["--working-dir", project] });
    const screen = await marvin.text();
    expect(screen).toMatch(/lists MCP servers, but this project is\s+not trusted[\s\S]*\n>$/);
    expect(screen.indexOf("── end of recent conversation ──")).toBeLessThan(screen.indexOf("lists MCP servers"));
  });

  test("stops at MARVIN_MAX_COST, says how to go on, and goes on after cap raises it", async ({ start }) => {
    const { marvin, server } = await start(
      [
        {
          toolCalls: [{ name: "timer_start", arguments: { name: "tea" } }],
          usage: { prompt: 1_000_000, completion: 0 },
        },
        { text: "The stopwatch is running." },
      ],
      { env: { MARVIN_MAX_COST: "0.10" } },
    );
    await marvin.submit("start a stopwatch");
    const stopped = await marvin.waitFor(/Error: This conversation has cost \$0\.15, over its cap of \$0\.10/);
    expect(stopped.replace(/\s+/g, " ")).toContain('Type "cap 0.20" to raise it, then send a message to go on.');
    expect(server.requests).toHaveLength(1);
    await marvin.submit("cap 0.50");
    await marvin.waitFor("This conversation's spending cap is now $0.50; $0.15 spent so far.");
    await marvin.submit("go on");
    await marvin.waitFor("The stopwatch is running.");
    expect(server.requests).toHaveLength(2);
  });

  test("Shift+Tab turns plan mode on and off, shown in the status bar; no tool that writes meanwhile", async ({
    start,
  }) => {
    const { marvin, server } = await start([{ text: "1. Look around." }], { args: ["--working-dir", "."] });
    await marvin.press("BTab");
    await marvin.waitFor("Plan mode on: Marvin only looks");
    await marvin.waitFor(/^ 🔌 .*│ coding · plan │ +○ ready/m);
    await marvin.submit("what would you change?");
    await marvin.waitFor("1. Look around.");
    const tools = (server.requests[0]!.body.tools ?? []).map((tool) => tool.function.name);
    expect(tools).toContain("read_file");
    expect(tools).not.toContain("create_file");
    await marvin.press("BTab");
    await marvin.waitFor("Plan mode off: every tool is available again; no plan was approved.");
    await marvin.waitFor(/^ 🔌 .*│ coding │ +○ ready/m);
  });

  test("runs commands in their / and word forms, refuses an unknown /command, and runs shell mode", async ({
    start,
  }) => {
    const { marvin, server } = await start([]);
    await marvin.submit("usage");
    await marvin.waitFor("This session: $0.0000");
    await marvin.submit("/help");
    const help = await marvin.waitFor("Anything else is sent to Marvin; a line starting with / never is.");
    // A description too long for the line goes on under its description column.
    expect(help).toMatch(/^ {2}!COMMAND +run COMMAND in the shell, .*\n {30}\S/m);
    expect(help).toMatch(/^ {2}Tab +complete a \/command .*\n {30}\S/m);
    await marvin.submit("/mdoel groq");
    await marvin.waitFor(/\/mdoel is not a command\. Did you mean \/model\?[\s\S]*nothing was sent to\s+the\s+model\./);
    await marvin.submit("!sh");
    await marvin.waitFor("Shell mode ON");
    await marvin.waitFor(/^ 🔌 .*│ shell │ +○ ready[\s\S]*\n\$$/);
    await marvin.submit("echo shell-says-$((6 * 7))");
    await marvin.waitFor(/^shell-says-42\nPress Enter to return to Marvin\.$/m); // on the terminal itself
    await marvin.press("Enter");
    await marvin.waitFor(/\$ echo shell-says-\$\(\(6 \* 7\)\)\n[\s\S]*\n\$$/);
    await marvin.submit("!sh");
    await marvin.waitFor("Shell mode OFF");
    await marvin.waitFor(/^ 🔌 .*│ \$0\.0000 │ +○ ready[\s\S]*\n>$/);
    await marvin.submit("!exit 3");
    await marvin.waitFor("Press Enter to return to Marvin.");
    await marvin.press("Enter");
    await marvin.waitFor(/> !exit 3\n\n\[System\] Exit code 3\./);
    expect(server.requests).toHaveLength(0);
  });

  test("completes in an overlay and on Tab, attaches an @file, stops with Esc, names the session on Ctrl+Q", async ({
    start,
    home,
  }) => {
    mkdirSync(join(home, "src", "agent"), { recursive: true });
    writeFileSync(join(home, "src", "agent", "loop.ts"), "");
    writeFileSync(join(home, "notes.md"), "the notes say 42\n");
    const { marvin, server } = await start([
      { text: "They say 42." },
      { text: "slow ".repeat(300), chunkSize: 5, delayMs: 40 },
    ]);
    await marvin.type("/mo");
    await marvin.waitFor(/ \/model \[MODEL\|N\|PROVIDER \[MODEL\]\] +list the models.*\n> \/mo$/);
    await marvin.press("Tab");
    await marvin.waitFor(/\n> \/model$/);
    await marvin.press("C-u");
    await marvin.type("look at src/ag");
    await marvin.press("Tab");
    await marvin.waitFor(/\n> look at src\/agent\/$/);
    await marvin.press("C-u");
    await marvin.type("/theme dra");
    await marvin.press("Tab");
    await marvin.waitFor(/\n> \/theme dracula ?$/);
    await marvin.press("C-u");
    await marvin.type("/co");
    await marvin.waitFor(/ \/compact +condense the conversation now.*\n.*\/code +toggle coding mode/);
    await marvin.press("Escape");
    await marvin.waitFor(/─\n> \/co$/); // the menu closed, the line stays
    await marvin.press("C-u");
    await marvin.type("what do @no");
    await marvin.waitFor(/ @notes\.md\n @notes_ls +tool\n[\s\S]*\n> what do @no$/);
    await marvin.press("Tab");
    await marvin.type("say?");
    await marvin.press("Enter");
    await marvin.waitFor("They say 42.");
    await marvin.waitFor("[System] Attached to the message: notes.md (17 B).");
    expect(userWords(server.requests[0]!.body.messages.at(-1)!.content)).toBe(
      'what do @notes.md say?\n\n<file path="notes.md">\nthe notes say 42\n\n</file>',
    );
    await marvin.submit("tell me a long story");
    await marvin.waitFor(/(slow ){5}/);
    await marvin.waitFor(/● working [1-9]s/);
    await marvin.press("Escape");
    await marvin.waitFor("[interrupted]");
    await marvin.waitFor("○ ready");
    await marvin.press("C-q");
    const after = await marvin.waitFor("MARVIN_EXITED=0");
    expect(after).toMatch(/^To continue this conversation: marvin --resume [\w-]+$/m);
    expect(server.requests).toHaveLength(2);
  });

  test(
    "gives a !command the terminal: it reads what the person types, then the screen comes " + "back, usable",
    async ({ start }) => {
      const { marvin, server } = await start([{ text: "Hello again." }]);
      await marvin.submit('!printf "Your name? "; read name; echo "got $name"');
      const during = await marvin.waitFor(/^Your name\?\s*$/m);
      expect(during).not.toContain("openai-compat");
      await marvin.submit("Arthur");
      await marvin.waitFor(/^got Arthur\nPress Enter to return to Marvin\.$/m);
      await marvin.press("Enter");
      await marvin.waitFor(
        /^ 🔌 openai-compat .*○ ready[\s\S]*> !printf "Your name\? "; read name; echo "got \$name"\n[\s\S]*\n>$/,
      );
      await marvin.submit("hi");
      await marvin.waitFor("Hello again.");
      expect(server.requests.map((request) => userWords(request.body.messages.at(-1)!.content))).toEqual(["hi"]);
      await marvin.submit("!echo sleeping; sleep 30");
      await marvin.waitFor(/^sleeping$/m);
      await marvin.press("C-c"); // reaches the command, not Marvin
      await marvin.waitFor("Press Enter to return to Marvin.");
      await marvin.press("Enter");
      const after = await marvin.waitFor("[System] Command interrupted.");
      expect(after).not.toContain("To exit");
    },
  );

  test("sends a message typed ahead during a !command only once the command is done", async ({ start, tempDirs }) => {
    const scratch = await tempDirs.make("marvin-tui-marker-");
    const marker = join(scratch, "done");
    const { marvin, server } = await start([
      () => ({ text: existsSync(marker) ? "Asked after the command." : "Asked DURING the command." }),
    ]);
    await marvin.submit(`!sleep 1; touch ${marker}`);
    await marvin.waitFor(/^\s*$/); // the command has the terminal
    await marvin.submit("hello"); // the command does not read it: Marvin gets it afterwards
    await marvin.waitFor("Asked after the command.");
    expect(server.requests.map((request) => userWords(request.body.messages.at(-1)!.content))).toEqual(["hello"]);
  });

  test("asks before run_command and shows the exact command", async ({ start, tempDirs }) => {
    const command = "echo made-by-marvin > made.txt";
    const project = await tempDirs.make("marvin-tui-project-");
    const { marvin, server } = await start(
      [{ toolCalls: [{ name: "run_command", arguments: { command } }] }, { text: "The file is there." }],
      { args: ["--working-dir", project] },
    );
    expect((await marvin.screen())[0]).toContain("│ coding │");
    await marvin.submit("make the file");
    await marvin.waitFor(`Run \`${command}\`? [y/N]`);
    expect(existsSync(join(project, "made.txt"))).toBe(false);
    await marvin.type("y");
    await marvin.waitFor("The file is there.");
    expect(readFileSync(join(project, "made.txt"), "utf8")).toBe("made-by-marvin\n");
    expect(server.requests[1]!.body.messages.at(-1)!.content).toMatch(/^Exit code: 0/);
  });

  test(
    "Ctrl+C stops a streaming answer and keeps the partial text; exiting takes two presses on an " + "empty prompt",
    async ({ start }) => {
      const { marvin, chatLog } = await start([
        { text: "blah ".repeat(400), chunkSize: 5, delayMs: 20 },
        { text: "Still here." },
      ]);
      await marvin.submit("ramble");
      await marvin.waitFor("blah blah blah blah");
      await marvin.press("C-c");
      await marvin.waitFor("[interrupted]");
      await marvin.waitFor("○ ready");
      await marvin.press("C-c"); // a second press right after the answer stopped does not quit
      await marvin.waitFor("(To exit, press Ctrl+C again or Ctrl+D, or type quit.)");
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await marvin.text()).not.toContain("MARVIN_EXITED");
      await marvin.submit("are you there?");
      await marvin.waitFor("Still here.");
      const log = chatLog();
      expect(log[1]!.role).toBe("assistant");
      expect(log[1]!.text.length).toBeGreaterThan(10);
      expect(log[1]!.text.length).toBeLessThan(2000);
      await marvin.waitFor("○ ready");
      await marvin.type("half typed");
      await marvin.press("C-c");
      await marvin.waitFor(/\n>$/);
      await marvin.press("C-c");
      await marvin.waitFor(/quit\.\)[\s\S]*quit\.\)/); // the hint, a second time
      await marvin.press("C-c");
      await marvin.waitFor("MARVIN_EXITED=0");
    },
  );

  test(
    "asks a prompt given on the command line first, then reflows everything when the terminal " + "is resized",
    async ({ start }) => {
      const { marvin, server } = await start(
        [{ text: "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen" }],
        { args: ["count in words"] },
      );
      await marvin.waitFor("fifteen sixteen");
      expect(userWords(server.requests[0]!.body.messages.at(-1)!.content)).toBe("count in words");
      await marvin.resize(40, 16);
      const screen = await marvin.waitFor(
        /^one two three four five six seven eight\nnine ten eleven twelve thirteen\n/m,
      );
      const rows = screen.split("\n");
      expect(rows).toHaveLength(16);
      for (const row of rows) expect(row.length).toBeLessThanOrEqual(40);
      expect(rows.at(-1), screen).toBe(">");
      await marvin.resize(100, 30);
      await marvin.waitFor(/^one two three .* sixteen$/m);
    },
  );

  test("takes a multi-line paste as one message, sent only on Enter", async ({ start }) => {
    const { marvin, server } = await start([{ text: "Got both lines." }]);
    await marvin.paste("first pasted line\nsecond pasted line");
    await marvin.waitFor(/^> first pasted line\n {2}second pasted line$/m);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.requests).toHaveLength(0);
    await marvin.press("Enter");
    await marvin.waitFor("Got both lines.");
    expect(userWords(server.requests[0]!.body.messages.at(-1)!.content)).toBe("first pasted line\nsecond pasted line");
  });

  test(
    "keeps a multi-line message's line breaks in ↑ recall and in the history file, " + "across restarts",
    async ({ start }) => {
      const { marvin, home, restart } = await start([{ text: "Noted." }]);
      await marvin.paste("first pasted line\nsecond pasted line");
      await marvin.press("Enter");
      await marvin.waitFor("Noted.");
      await marvin.press("Up");
      await marvin.waitFor(/^> first pasted line\n {2}second pasted line$/m);
      await marvin.press("Down");
      await marvin.waitFor(/\n>$/);
      await marvin.press("C-d");
      await marvin.waitFor("MARVIN_EXITED=0");
      const historyFile = join(home, ".config", "local-finder", "profiles", "main", "history");
      expect(readFileSync(historyFile, "utf8")).toBe("first pasted line\\012second pasted line\n");
      const again = await restart();
      await again.press("Up");
      await again.waitFor(/^> first pasted line\n {2}second pasted line$/m);
    },
  );

  test("releases the terminal to $EDITOR for preferences, then draws the screen again", async ({ start, tempDirs }) => {
    const scripts = await tempDirs.make("marvin-tui-editor-");
    const editor = join(scripts, "editor.sh");
    writeFileSync(editor, '#!/bin/sh\necho "EDITOR IS RUNNING"\nsleep 1\necho "# edited in the test" >> "$1"\n');
    chmodSync(editor, 0o755);
    const { marvin, home } = await start([], { env: { EDITOR: editor } });
    await marvin.submit("preferences");
    const during = await marvin.waitFor("EDITOR IS RUNNING");
    expect(during).not.toContain("openai-compat");
    const after = await marvin.waitFor("Preferences saved");
    expect(after.split("\n")[0]).toContain("openai-compat");
    expect(
      readFileSync(join(home, ".config", "local-finder", "profiles", "main", "preferences.yaml"), "utf8"),
    ).toContain("# edited in the test");
    await marvin.press("C-d");
    await marvin.waitFor("MARVIN_EXITED=0");
  });

  test("shows tool calls as blocks: key arguments, live time and output, folded, Ctrl+O/Ctrl+T unfold", async ({
    start,
    tempDirs,
  }) => {
    const project = await tempDirs.make("marvin-tui-blocks-");
    writeFileSync(join(project, "answer.ts"), "// the answer\nconst answer = 41;\n");
    const command = "echo tick 1; sleep 1.5; echo tick 2; sleep 1.5; echo tick 3";
    const big = Array.from({ length: 40 }, (_, index) => `line ${index + 1}`).join("\n");
    const { marvin } = await start(
      [
        { toolCalls: [{ name: "run_command", arguments: { command } }] },
        { text: "It ticked." },
        {
          toolCalls: [
            { name: "apply_patch", arguments: { path: "answer.ts", old_str: "answer = 41;", new_str: "answer = 42;" } },
            { name: "create_file", arguments: { path: "big.txt", content: `${big}\n` } },
          ],
        },
        { text: "Both written." },
      ],
      { args: ["--working-dir", project] },
    );
    await marvin.submit("tick");
    await marvin.waitFor("[y/N]");
    await marvin.type("y");
    // Running: one header line with the command and a live time, the output streaming under it.
    const running = await marvin.waitFor(/│ tick 1\n/);
    expect(running).toMatch(
      /⏳ run_command {2}echo tick 1; sleep 1\.5; echo tick 2; sleep 1\.5; echo tick 3 · \d\.\ds\n/,
    );
    expect(running).not.toContain("│ tick 2");
    await marvin.waitFor(/⏳ run_command .* · [1-9]\.\ds\n.*\n.*│ tick 1\n.*│ tick 2\n/);
    // Done: folded to one line with ✓, its time and the result's first line.
    const done = await marvin.waitFor("It ticked.");
    expect(done).toMatch(/✓ run_command {2}echo tick 1; .* · [3-9]\.\ds · Exit code: 0/);
    expect(done).not.toContain("│ tick");
    await marvin.press("C-o");
    const unfolded = await marvin.waitFor("│ tick 3");
    expect(unfolded).toMatch(/│ Exit code: 0 \(\ds\)\n.*│ tick 1\n.*│ tick 2\n.*│ tick 3\n/);
    await marvin.press("C-o");
    await marvin.waitFor(/Exit code: 0.*\n {3}Run .*\[y\/N\] y\n\nMarvin · \d\d:\d\d\nIt ticked\./);

    await marvin.submit("write them");
    const edited = await marvin.waitFor("Both written.");
    expect(edited).toMatch(/✓ create_file {2}big\.txt · /);
    // The big file's diff is folded past a screenful.
    expect(edited).toContain("+line 17\n  … 23 more lines, Ctrl+O expands");
    expect(edited).not.toContain("+line 18");
    // Colours: the removed line red and the added green.
    const styled = await marvin.styled();
    // The changed number stands out: on the line's colour as background (the default theme), or inverse video.
    expect(styled).toMatch(
      /\x1b\[31m-const answer = (\x1b\[[\d;]*m)*\x1b\[(?:[\d;]*;)?(?:41|7)(?:;[\d;]*)?m(\x1b\[[\d;]*m)*41(\x1b\[[\d;]*m)*;/,
    );
    expect(styled).toMatch(
      /\x1b\[32m\+const answer = (\x1b\[[\d;]*m)*\x1b\[(?:[\d;]*;)?(?:42|7)(?:;[\d;]*)?m(\x1b\[[\d;]*m)*42(\x1b\[[\d;]*m)*;/,
    );
    await marvin.press("PPage");
    await marvin.waitFor(/✓ apply_patch {2}answer\.ts · \d+\.\ds · Patched answer\.ts/);
    await marvin.press("C-End");
    // Ctrl+T unfolds every block (the command's output too), and folds them all again.
    await marvin.press("C-t");
    await marvin.waitFor("+line 40\n");
    await marvin.press("PPage", "PPage", "PPage");
    await marvin.waitFor("│ tick 3");
    await marvin.press("C-End");
    await marvin.press("C-t");
    const folded = await marvin.waitFor("… 23 more lines, Ctrl+O expands");
    expect(folded).not.toContain("+line 40");
  });

  test("folds the thinking above an answer to one line; Ctrl+O unfolds it and folds it again", async ({ start }) => {
    const { marvin } = await start([
      { text: "Two minutes.", reasoning: "Green tea steeps briefly.\n\nAt 80 degrees, two minutes is right." },
    ]);
    await marvin.submit("green tea?");
    await marvin.waitFor(/💭 Green tea steeps briefly\. At 80 degrees, two minutes is right\.\n\nMarvin · /);
    await marvin.press("C-o");
    await marvin.waitFor(/💭 Green tea steeps briefly\.\n\nAt 80 degrees, two minutes is right\.\n/);
    await marvin.press("C-o");
    await marvin.waitFor(/💭 Green tea steeps briefly\. At 80 degrees/);
  });
});
