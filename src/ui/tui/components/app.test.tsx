import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { stripVTControlCharacters as plain } from "node:util";
import { test as base, describe, expect } from "../../../../tests/support/fixtures.js";
import type { LlmServer, Script } from "../../../../tests/support/llm-server.js";
import { userWords } from "../../../../tests/support/llm-server.js";
import type { TempDirs } from "../../../../tests/support/test-session.js";
import type { CliArgs } from "../../../cli/args.js";
import { buildSession } from "../../../cli/build-session.js";
import type { Session } from "../../../session/session.js";
import { sleep } from "../../../shared/sleep.js";
import { CommandLayer } from "../../commands/index.js";
import { ChatStore } from "../chat-store.js";
import { ConfirmBroker } from "../confirm-broker.js";
import { TuiController } from "../controller.js";
import { mountScreen } from "../mount-screen.js";
import { themeFor } from "../theme.js";

const ARGS: CliArgs = {
  nonInteractive: false,
  plain: false,
  curses: true,
  output: "text",
  continueLatest: false,
  help: false,
  version: false,
};

interface AppOptions {
  env?: Record<string, string>;
  workingDir?: boolean;
  history?: string[];
  rows?: number;
  columns?: number;
}

interface AppResources {
  tempDirs: TempDirs;
  llm: (script: Script[]) => Promise<LlmServer>;
  /** What stops the app, run after the test. */
  stops: Array<() => Promise<void>>;
}

/** The real TUI (session, command layer, controller, Ink tree) against a scripted LLM server. */
async function launchApp({ tempDirs, llm, stops }: AppResources, script: Script[], options: AppOptions = {}) {
  const home = await tempDirs.make("marvin-tui-");
  const server = await llm(script);
  const env = {
    HOME: home,
    PATH: process.env.PATH,
    LLM_PROVIDER: "openai-compat",
    OPENAI_COMPAT_URL: server.url,
    OPENAI_COMPAT_API_KEY: "k",
    OPENAI_COMPAT_MODEL: "gpt-4o-mini",
    ...options.env,
  };
  if (options.history) {
    const profile = join(home, ".config", "local-finder", "profiles", "main");
    await mkdir(profile, { recursive: true });
    await writeFile(join(profile, "history"), `${options.history.join("\n")}\n`);
  }
  const confirm = new ConfirmBroker();
  const args = { ...ARGS, workingDir: options.workingDir ? home : undefined };
  const { session, providerName } = await buildSession(args, {
    env,
    home,
    cwd: home,
    notice: () => undefined,
    askApproval: confirm.ask,
  });
  const chat = new ChatStore();
  session.subscribe((event) => chat.apply(event));
  let exited = false;
  const controller = new TuiController({
    session,
    chat,
    confirm,
    createLayer: (host) => new CommandLayer({ session, env, home, cwd: home, providerName }, host),
    onExit: () => (exited = true),
    terminal: false,
    releaseTerminal: (run) => run(),
  });
  await controller.loadInputHistoryLines();
  const terminal = new TestTerminal(options.columns ?? 80, options.rows ?? 24);
  const screen = mountScreen(controller, themeFor(env), terminal.stdin, terminal.stdout);
  stops.push(async () => {
    screen.unmount();
    controller.exit();
    await controller.idle();
    chat.dispose();
    await controller.layer.close();
    await session.close();
  });
  await sleep(20); // let the input effect attach to stdin
  return {
    terminal,
    home,
    server,
    session,
    controller,
    exited: () => exited,
    frame: () => screen.screen.map((row) => plain(row)).join("\n"),
    raw: () => screen.screen.join("\n"),
  };
}

/** `startApp(script, options)`: the TUI of {@link launchApp}, stopped after the test. */
const test = base.extend<{
  startApp: (script: Script[], options?: AppOptions) => ReturnType<typeof launchApp>;
}>({
  startApp: async ({ tempDirs, llm }, use) => {
    const stops: Array<() => Promise<void>> = [];
    await use((script, options) => launchApp({ tempDirs, llm, stops }, script, options));
    for (const stop of stops.reverse()) await stop();
  },
});

/** Real streams standing in for the terminal: keys go in through stdin; stdout has a size. */
class TestTerminal {
  readonly stdin = new PassThrough() as unknown as NodeJS.ReadStream & PassThrough;
  readonly stdout = new PassThrough() as unknown as NodeJS.WriteStream & PassThrough;

  constructor(columns: number, rows: number) {
    this.stdout.resume();
    this.resize(columns, rows);
  }

  write(keys: string): void {
    this.stdin.write(keys);
  }

  resize(columns: number, rows: number): void {
    Object.assign(this.stdout, { columns, rows });
    this.stdout.emit("resize");
  }
}

async function waitFor(check: () => boolean, describe: () => string, timeoutMs = 5000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting; screen:\n${describe()}`);
    await sleep(10);
  }
}

type Started = Awaited<ReturnType<typeof launchApp>>;
const until = (tui: Started, text: string | RegExp) =>
  waitFor(() => (typeof text === "string" ? tui.frame().includes(text) : text.test(tui.frame())), tui.frame);
const lines = (tui: Started) => tui.frame().split("\n");
const promptLine = (tui: Started) => lines(tui).at(-1)!;
const typeLine = async (tui: Started, text: string) => {
  tui.terminal.write(text);
  await sleep(5);
  tui.terminal.write("\r");
};
const idle = (session: Session) =>
  waitFor(
    () => !session.busy,
    () => "session still busy",
  );

describe("TUI app", () => {
  test("streams a markdown answer in colour under the status bar and keeps the status up to date", async ({
    startApp,
  }) => {
    const tui = await startApp(
      [{ text: "# Forecast\n\nIt will be **sunny** with `21 °C`.", usage: { prompt: 1000, completion: 200 } }],
      { workingDir: true, columns: 100 },
    );
    expect(lines(tui)[0]).toMatch(
      /^ 🔌 openai-compat · gpt-4o-mini │ 👤 main │ 0 msgs │ \$0\.0000 │ coding │ +○ ready $/,
    );
    await typeLine(tui, "weather?");
    await until(tui, "21 °C");
    await idle(tui.session);
    await until(tui, "2 msgs");
    const screen = tui.frame();
    expect(screen).toMatch(
      /You · \d\d:\d\d\nweather\?\n\nMarvin · \d\d:\d\d\nForecast\n\nIt will be sunny with 21 °C\./,
    );
    expect(lines(tui)[0]).toContain("$0.0003");
    expect(tui.raw()).toContain("\x1b[36mweather?\x1b[39m");
    expect(tui.raw()).toContain(
      "\x1b[32mIt will be \x1b[39m\x1b[1m\x1b[32msunny\x1b[39m\x1b[22m\x1b[32m with \x1b[39m\x1b[96m21 °C\x1b[39m",
    );
    expect(lines(tui).length).toBe(24);
    tui.terminal.resize(66, 24);
    await sleep(20);
    expect(lines(tui)[0]).toMatch(/^ 🔌 gpt-4o-mini │ 👤 main │ 2 msgs │ \$0\.0003 │ coding │ +○ ready $/);
  });

  test("edits the input line with readline keys", async ({ startApp }) => {
    const tui = await startApp([]);
    const stdin = tui.terminal;
    stdin.write("helo world");
    for (let index = 0; index < 7; index += 1) stdin.write("\x1b[D");
    stdin.write("l");
    stdin.write("\x01");
    stdin.write(">> ");
    stdin.write("\x05");
    stdin.write("!!");
    await sleep(20);
    expect(promptLine(tui)).toBe("> >> hello world!! ");
    stdin.write("\x17");
    stdin.write("\x7f");
    await sleep(20);
    expect(promptLine(tui)).toBe("> >> hello ");
    stdin.write("\x1b[H\x1b[3~\x1b[3~");
    await sleep(20);
    expect(promptLine(tui)).toBe(">  hello");
    stdin.write("\x05\x15");
    await sleep(20);
    expect(promptLine(tui)).toBe(">  ");
  });

  test("recalls earlier input with ↑/↓ and finds it with Ctrl+R", async ({ startApp }) => {
    const tui = await startApp([], { history: ["what is the weather", "list my notes", "tell me a joke"] });
    const stdin = tui.terminal;
    stdin.write("\x1b[A");
    await sleep(20);
    expect(promptLine(tui)).toBe("> tell me a joke ");
    stdin.write("\x1b[A\x1b[A");
    await sleep(20);
    expect(promptLine(tui)).toBe("> what is the weather ");
    stdin.write("\x1b[B\x1b[B\x1b[B");
    await sleep(20);
    expect(promptLine(tui)).toBe(">  ");
    stdin.write("\x12");
    stdin.write("note");
    await sleep(20);
    expect(promptLine(tui)).toBe("(reverse-i-search)'note': list my notes");
    stdin.write("\x12");
    stdin.write("zz");
    await sleep(20);
    expect(promptLine(tui)).toBe("(failed reverse-i-search)'notezz':  ");
    stdin.write("\x07");
    await sleep(20);
    expect(promptLine(tui)).toBe(">  ");
  });

  test("scrolls with PgUp/PgDn and the wheel, and stops following the bottom while scrolled up", async ({
    startApp,
  }) => {
    const long = Array.from({ length: 40 }, (_, index) => `Line ${index + 1}`).join("\n\n");
    const tui = await startApp([
      { text: long, chunkSize: 40 },
      { text: `${"more ".repeat(200)}THE END`, chunkSize: 5, delayMs: 5 },
    ]);
    await typeLine(tui, "long please");
    await until(tui, "Line 40");
    await idle(tui.session);
    tui.terminal.write("\x1b[5~");
    await until(tui, /↓ \d+ more lines/);
    expect(tui.frame()).not.toContain("Line 40");
    await typeLine(tui, "and more");
    await until(tui, "more more more");
    tui.terminal.write("\x1b[5~");
    await until(tui, /↓ \d+ more lines/);
    const chatArea = () => lines(tui).slice(1, -2).join("\n");
    const view = chatArea();
    await sleep(100);
    expect(tui.session.busy).toBe(true);
    expect(chatArea()).toBe(view);
    tui.terminal.write("\x1b[<64;5;5M");
    await sleep(20);
    expect(chatArea()).not.toBe(view);
    await idle(tui.session);
    expect(tui.frame()).not.toContain("THE END");
    tui.terminal.write("\x1b[6~".repeat(20));
    await until(tui, "THE END");
    expect(lines(tui)[0]).not.toMatch(/more lines/);
  });

  test("asks before run_command, showing the exact command, runs it only after y, and counts its seconds", async ({
    startApp,
  }) => {
    const command = "sleep 2.3; echo approved > approved.txt";
    const tui = await startApp(
      [
        { toolCalls: [{ name: "run_command", arguments: { command } }] },
        { text: "Done, it ran." },
        { toolCalls: [{ name: "run_command", arguments: { command: "touch declined.txt" } }] },
        { text: "Understood, not running it." },
      ],
      { workingDir: true },
    );
    await typeLine(tui, "run it");
    await until(tui, `Run \`${command}\`? [y/N]`);
    expect(promptLine(tui)).toBe(`Run \`${command}\`? [y/N] `);
    tui.terminal.write("y");
    // The answer stays with its call, above the counter and then the result.
    await until(tui, `🔧 run_command\n   Run \`${command}\`? [y/N] y\n   ⏳ run_command 2s\n`);
    await until(tui, "Done, it ran.");
    expect(tui.frame()).toMatch(
      /\[y\/N\] y\n {3}↳ run_command: Exit code: 0 \(2s\) \(\+\d lines\) \(2\.\ds\)\n\nMarvin · \d\d:\d\d\nDone, it ran\./,
    );
    expect(await readFile(join(tui.home, "approved.txt"), "utf8")).toBe("approved\n");
    await idle(tui.session);
    await typeLine(tui, "another");
    await until(tui, "Run `touch declined.txt`? [y/N]");
    tui.terminal.write("\r");
    await until(tui, "Understood, not running it.");
    expect(tui.frame()).toContain(
      "🔧 run_command\n   Run `touch declined.txt`? [y/N] n\n   ↳ run_command: The user declined to run this command",
    );
    expect(existsSync(join(tui.home, "declined.txt"))).toBe(false);
    expect(tui.server.requests[3]!.body.messages.at(-1)!.content).toContain(
      "The user declined to run this command: touch declined.txt",
    );
  });

  test("`resume` in a chat opens the picker; Esc goes back to that chat, which goes on", async ({ startApp }) => {
    const tui = await startApp([{ text: "First answer." }, { text: "Second answer." }]);
    await typeLine(tui, "first question");
    await until(tui, "First answer.");
    await idle(tui.session);
    await typeLine(tui, "resume");
    await until(tui, "Resume a conversation (1 of 1) · Esc: back to this chat ·");
    tui.terminal.write("\x1b");
    await waitFor(() => !tui.frame().includes("Resume a conversation"), tui.frame);
    expect(tui.frame()).toContain("First answer.");
    await typeLine(tui, "second question");
    await until(tui, "Second answer.");
    expect(tui.server.requests[1]!.body.messages.slice(1).map((message) => userWords(message.content))).toEqual([
      "first question",
      "First answer.",
      "second question",
    ]);
  });

  test("Ctrl+C stops a streaming answer, keeps the partial text, and a message typed meanwhile is queued", async ({
    startApp,
  }) => {
    const tui = await startApp([{ text: "word ".repeat(300), chunkSize: 5, delayMs: 15 }, { text: "Second answer." }]);
    await typeLine(tui, "talk a lot");
    await until(tui, "word word word");
    await typeLine(tui, "then this");
    await until(tui, "⏳ queued: then this");
    expect(lines(tui)[0]).toContain("1 queued");
    tui.terminal.write("\x03");
    await until(tui, "[interrupted]");
    await until(tui, "Second answer.");
    await idle(tui.session);
    expect(tui.frame()).toMatch(/\[interrupted\]\n\nYou · \d\d:\d\d\nthen this/);
    expect(tui.frame()).not.toContain("queued");
    expect(tui.exited()).toBe(false);
    const log = JSON.parse(
      await readFile(join(tui.home, ".config", "local-finder", "profiles", "main", "chat_log.json"), "utf8"),
    ) as Array<{ role: string; text: string }>;
    expect(log[1]!.role).toBe("assistant");
    expect(log[1]!.text).toMatch(/^(word )+/);
    expect(log[1]!.text.length).toBeLessThan(1500);
  });

  test("runs slash commands and shell mode through the shared command layer", async ({ startApp }) => {
    const tui = await startApp([]);
    await typeLine(tui, "help");
    await until(tui, "Keys:");
    expect(tui.frame()).toContain("Ctrl+R");
    await typeLine(tui, "!sh");
    await until(tui, "Shell mode ON");
    expect(lines(tui)[0]).toMatch(/│ shell │ +○ ready/);
    expect(promptLine(tui)).toBe("$  ");
    await typeLine(tui, "echo from-the-shell");
    await until(tui, /\$ echo from-the-shell\nfrom-the-shell/);
    expect(tui.server.requests).toHaveLength(0);
  });

  test("queues a message typed while a !command runs and sends it once the command is done", async ({
    startApp,
    tempDirs,
  }) => {
    const marker = join(await tempDirs.make("marvin-tui-marker-"), "done");
    const tui = await startApp([
      () => ({ text: existsSync(marker) ? "Asked after the command." : "Asked DURING the command." }),
    ]);
    await typeLine(tui, `!sleep 0.5; touch ${marker}`);
    await until(tui, /│ +● working/);
    await typeLine(tui, "hello");
    await until(tui, "⏳ queued: hello");
    expect(tui.server.requests).toHaveLength(0);
    await until(tui, "Asked after the command.");
    expect(tui.frame()).not.toContain("⏳ queued");
    expect(tui.server.requests.map((request) => userWords(request.body.messages.at(-1)!.content))).toEqual(["hello"]);
  });

  test("reflows to a new terminal size", async ({ startApp }) => {
    const tui = await startApp([{ text: "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu" }]);
    await typeLine(tui, "words");
    await until(tui, "lambda mu");
    await idle(tui.session);
    tui.terminal.resize(30, 16);
    await sleep(30);
    const narrow = lines(tui);
    expect(narrow).toHaveLength(16);
    for (const line of narrow) expect(line.length).toBeLessThanOrEqual(29);
    expect(narrow).toContain("alpha beta gamma delta");
  });

  test("leaves colours out with NO_COLOR and exits on Ctrl+D", async ({ startApp }) => {
    const tui = await startApp([{ text: "Plain **text**." }], { env: { NO_COLOR: "1" } });
    await typeLine(tui, "hi");
    await until(tui, "Plain text.");
    expect(tui.raw()).not.toMatch(/\x1b\[(3[0-9]|9[0-9])m/);
    expect(tui.raw()).toContain("\x1b[7m");
    tui.terminal.write("\x04");
    await waitFor(tui.exited, tui.frame);
  });
});
