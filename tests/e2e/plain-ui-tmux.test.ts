import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test as base, describe, expect } from "../support/fixtures.js";
import { type LlmServer, type Script, userWords } from "../support/llm-server.js";
import { MARVIN_BIN, serverEnv } from "../support/run-marvin.js";
import { killTmuxServer } from "../support/tmux.js";

const hasTmux = spawnSync("tmux", ["-V"]).status === 0;

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/** `marvin --plain` in a detached tmux terminal of its own; the pane prints MARVIN-EXITED-<code> when it ends. */
class PlainTerminal {
  constructor(
    private readonly socket: string,
    readonly server: LlmServer,
  ) {}

  private tmux(...args: string[]): string {
    return execFileSync("tmux", ["-L", this.socket, ...args], { encoding: "utf8" });
  }

  /** The pane's text (with its scrollback), or with colours as escape sequences. */
  readonly screen = (withColours = false): string =>
    this.tmux("capture-pane", "-p", "-J", "-S", "-200", "-t", "marvin", ...(withColours ? ["-e"] : []));

  readonly type = (text: string): void => {
    this.tmux("send-keys", "-t", "marvin", "-l", text);
  };

  readonly press = (...keys: string[]): void => {
    this.tmux("send-keys", "-t", "marvin", ...keys);
  };

  readonly waitForScreen = async (condition: (text: string) => boolean, timeoutMs = 10_000): Promise<string> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const text = this.screen();
      if (condition(text)) return text;
      if (Date.now() > deadline) throw new Error(`the terminal never showed what was expected; it shows:\n${text}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
}

type StartMarvin = (script: Script[], extraEnv?: Record<string, string>, args?: string[]) => Promise<PlainTerminal>;

/** `startMarvin(script, extraEnv, args)`: a PlainTerminal at its prompt; its tmux server is killed after the test. */
const test = base.extend<{ startMarvin: StartMarvin }>({
  startMarvin: async ({ llm, home }, use) => {
    const sockets: string[] = [];
    await use(async (script, extraEnv = {}, args = []) => {
      const server = await llm(script);
      const env = { ...serverEnv(server.url, home), TERM: "xterm-256color", LANG: "C.UTF-8", ...extraEnv };
      const assignments = Object.entries(env).map(([key, value]) => `${key}=${quote(value ?? "")}`);
      const command =
        `cd ${quote(home)} && env -i ${assignments.join(" ")} ${quote(process.execPath)} ` +
        `${quote(MARVIN_BIN)} --plain ${args.map(quote).join(" ")}; echo MARVIN-EXITED-$?; sleep 30`;
      const socket = `marvin-plain-test-${process.pid}-${Date.now()}`;
      sockets.push(socket);
      const terminal = new PlainTerminal(socket, server);
      execFileSync("tmux", ["-L", socket, "new-session", "-d", "-s", "marvin", "-x", "110", "-y", "30", command]);
      await terminal.waitForScreen((text) => text.includes("/exit to leave.") && text.trimEnd().endsWith("\n>"));
      return terminal;
    });
    for (const socket of sockets) await killTmuxServer(socket);
  },
});

describe.skipIf(!hasTmux)(
  `marvin --plain in a real terminal (tmux)${hasTmux ? "" : ": skipped because tmux is not installed"}`,
  () => {
    test("streams an answer, stops a slow one with Ctrl+C, clears a typed line with Ctrl+C, and quits", async ({
      startMarvin,
    }) => {
      const { server, screen, type, press, waitForScreen } = await startMarvin([
        {
          text: "Hello from the terminal test.",
          chunkSize: 4,
          delayMs: 5,
          usage: { prompt: 12_000, completion: 345, cached: 10_200 },
        },
        { text: "slow ".repeat(300), chunkSize: 5, delayMs: 40 },
        { text: "Ready for more." },
      ]);
      type("hi there");
      press("Enter");
      // After the answer, the context meter (as in the TUI's status line), on a line of its own.
      await waitForScreen((text) =>
        text.includes("> hi there\nHello from the terminal test.\ncontext 12k/200k (6%) · cache 85%\n>"),
      );

      type("tell me a long story");
      press("Enter");
      await waitForScreen((text) => (text.match(/slow/g) ?? []).length >= 5);
      press("C-c");
      const stopped = await waitForScreen(
        (text) => text.includes("[System] Stopped. The partial answer is kept.") && text.trimEnd().endsWith("\n>"),
      );
      expect((stopped.match(/slow/g) ?? []).length).toBeLessThan(300);

      type("half typed");
      press("C-c");
      type("next");
      press("Enter");
      await waitForScreen((text) => text.includes("Ready for more."));

      press("C-c");
      await waitForScreen((text) => text.includes("(To exit, press Ctrl+C again or Ctrl+D, or type quit.)"));
      expect(screen(true)).toMatch(/\x1b\[32m[^\n]*Ready/); // assistant text is green on a terminal
      type("quit");
      press("Enter");
      await waitForScreen((text) => text.includes("MARVIN-EXITED-0"));

      expect(server.requests).toHaveLength(3);
      const third = server.requests[2]!.body.messages;
      expect(userWords(third.at(-1)!.content)).toBe("next");
      expect(third.at(-2)!.role).toBe("assistant");
      expect(third.at(-2)!.content).toMatch(/^(slow )+/);
    });

    test("completes /commands and paths on Tab, attaches an @file, stops with Esc, leaves on Ctrl+Q", async ({
      startMarvin,
      home,
    }) => {
      mkdirSync(join(home, "src", "agent"), { recursive: true });
      writeFileSync(join(home, "src", "agent", "loop.ts"), "");
      writeFileSync(join(home, "notes.md"), "the notes say 42\n");
      const { server, type, press, waitForScreen } = await startMarvin([
        { text: "They say 42." },
        { text: "slow ".repeat(300), chunkSize: 5, delayMs: 40 },
      ]);
      type("/mo");
      press("Tab");
      await waitForScreen((text) => text.trimEnd().endsWith("> /model"));
      press("C-u");
      type("look at src/ag");
      press("Tab");
      await waitForScreen((text) => text.trimEnd().endsWith("> look at src/agent/"));
      press("C-u");
      type("/theme dra");
      press("Tab");
      await waitForScreen((text) => text.trimEnd().endsWith("> /theme dracula"));
      press("C-u");
      type("/co");
      press("Tab");
      press("Tab");
      await waitForScreen((text) => /\/compact +condense the conversation now/.test(text));
      press("C-u");
      type("what do @notes.md say?");
      press("Enter");
      await waitForScreen((text) => text.includes("They say 42."));
      expect(userWords(server.requests[0]!.body.messages.at(-1)!.content)).toContain("the notes say 42");
      type("tell me a long story");
      press("Enter");
      await waitForScreen((text) => (text.match(/slow/g) ?? []).length >= 5);
      press("Escape");
      await waitForScreen(
        (text) => text.includes("[System] Stopped. The partial answer is kept.") && text.trimEnd().endsWith("\n>"),
      );
      press("C-q");
      const after = await waitForScreen((text) => text.includes("MARVIN-EXITED-0"));
      expect(after).toMatch(/To continue this conversation: marvin --resume [\w-]+\n/);
      expect(server.requests).toHaveLength(2);
    });

    test("two Ctrl+C while an answer streams stop it and then ask, as in the full-screen UI; a third exits", async ({
      startMarvin,
    }) => {
      const { screen, type, press, waitForScreen } = await startMarvin([
        { text: "slow ".repeat(300), chunkSize: 5, delayMs: 40 },
      ]);
      type("tell me a long story");
      press("Enter");
      await waitForScreen((text) => (text.match(/slow/g) ?? []).length >= 5);
      press("C-c");
      await waitForScreen(
        (text) => text.includes("[System] Stopped. The partial answer is kept.") && text.trimEnd().endsWith("\n>"),
      );
      press("C-c");
      await waitForScreen((text) => text.includes("(To exit, press Ctrl+C again or Ctrl+D, or type quit.)"));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(screen()).not.toContain("MARVIN-EXITED");
      press("C-c");
      await waitForScreen((text) => text.includes("MARVIN-EXITED-0"));
    });

    test("gives a !command the terminal: it reads a typed line, Ctrl+C stops it, and the prompt comes back", async ({
      startMarvin,
    }) => {
      const { server, type, press, waitForScreen } = await startMarvin([{ text: "Still listening." }]);
      type('!printf "Your name? "; read name; echo "got $name"');
      press("Enter");
      await waitForScreen((text) => text.trimEnd().endsWith("Your name?"));
      type("Ford");
      press("Enter");
      await waitForScreen((text) => text.includes("Your name? Ford\ngot Ford\n>"));
      type("!echo sleeping; sleep 30");
      press("Enter");
      await waitForScreen((text) => text.trimEnd().endsWith("> !echo sleeping; sleep 30\nsleeping"));
      press("C-c");
      // On screen ^C and the report are on rows of their own; -J joins the row Marvin wrapped past to start afresh.
      await waitForScreen((text) => /\nsleeping\n\^C\s*\[System\] Command interrupted\.\n>/.test(text));
      type("are you there?");
      press("Enter");
      await waitForScreen((text) => text.includes("Still listening."));
      expect(server.requests.map((request) => userWords(request.body.messages.at(-1)!.content))).toEqual([
        "are you there?",
      ]);
    });

    test("asks before run_command; y runs it, and Ctrl+C at the question declines and stops the request", async ({
      startMarvin,
      home,
    }) => {
      const project = join(home, "project");
      mkdirSync(project);
      const { server, type, press, waitForScreen } = await startMarvin(
        [
          {
            toolCalls: [{ name: "run_command", arguments: { command: "echo streamed; echo approved > approved.txt" } }],
          },
          { text: "Done." },
          { toolCalls: [{ name: "run_command", arguments: { command: "touch never.txt" } }] },
          { text: "unused" },
        ],
        {},
        ["--working-dir", project],
      );
      type("write the file");
      press("Enter");
      await waitForScreen((text) =>
        text.trimEnd().endsWith("Run `echo streamed; echo approved > approved.txt`? [y/N]"),
      );
      type("y");
      press("Enter");
      const ran = await waitForScreen((text) => text.includes("Done.") && text.trimEnd().endsWith("\n>"));
      // The call's header with its command, its output as it came, then its summary line.
      expect(ran).toMatch(
        / {2}🔧 run_command {2}echo streamed; echo approved > approved\.txt\nRun .*\? \[y\/N\] y\n {4}│ streamed\n {2}✓ run_command {2}echo streamed; echo approved > approved\.txt · \d\.\ds · Exit code: 0 \(0s\) \(\+1 lines\)\nDone\.\n/,
      );
      expect(readFileSync(join(project, "approved.txt"), "utf8")).toBe("approved\n");

      type("touch another");
      press("Enter");
      await waitForScreen((text) => text.trimEnd().endsWith("Run `touch never.txt`? [y/N]"));
      press("C-c");
      await waitForScreen((text) =>
        /Run `touch never\.txt`\? \[y\/N\]\s*\n {2}✗ run_command {2}touch never\.txt · .*cancelled\.\n\[System\] Stopped\. The partial answer is kept\.\ncontext .*\n>/.test(
          text,
        ),
      );
      type("quit");
      press("Enter");
      await waitForScreen((text) => text.includes("MARVIN-EXITED-0"));
      expect(existsSync(join(project, "never.txt"))).toBe(false);
      expect(server.requests).toHaveLength(3);
    });

    test("prints an edit's diff coloured, the changed words highlighted", async ({ startMarvin, home }) => {
      const project = join(home, "project");
      mkdirSync(project);
      writeFileSync(join(project, "answer.ts"), "// the answer\nconst answer = 41;\n");
      const { screen, type, press, waitForScreen } = await startMarvin(
        [
          { toolCalls: [{ name: "apply_patch", arguments: { path: "answer.ts", old_str: "41", new_str: "42" } }] },
          { text: "Patched." },
        ],
        {},
        ["--working-dir", project],
      );
      type("fix the answer");
      press("Enter");
      const shown = await waitForScreen((text) => text.includes("Patched.\n"));
      expect(shown).toMatch(
        / {2}✓ apply_patch {2}answer\.ts · \d\.\ds · Patched answer\.ts.*\n {4}--- a\/answer\.ts\n {4}\+\+\+ b\/answer\.ts\n {4}@@ -1,2 \+1,2 @@\n {5}\/\/ the answer\n {4}-const answer = 41;\n {4}\+const answer = 42;\n/,
      );
      const coloured = screen(true);
      // The changed number stands out: on the line's colour as background (the default theme), or inverse video.
      expect(coloured).toMatch(
        /\x1b\[31m-const answer = (\x1b\[[\d;]*m)*\x1b\[(?:[\d;]*;)?(?:41|7)(?:;[\d;]*)?m(\x1b\[[\d;]*m)*41(\x1b\[[\d;]*m)*;/,
      );
      expect(coloured).toMatch(
        /\x1b\[32m\+const answer = (\x1b\[[\d;]*m)*\x1b\[(?:[\d;]*;)?(?:42|7)(?:;[\d;]*)?m(\x1b\[[\d;]*m)*42(\x1b\[[\d;]*m)*;/,
      );
      type("quit");
      press("Enter");
      await waitForScreen((text) => text.includes("MARVIN-EXITED-0"));
    });

    test(
      "recalls earlier input with ↑ from the profile's history file (multi-line entries too), honours NO_COLOR, and " +
        "exits on Ctrl+D",
      async ({ startMarvin, home }) => {
        const profile = join(home, ".config", "local-finder", "profiles", "main");
        mkdirSync(profile, { recursive: true });
        writeFileSync(join(profile, "history"), "an old question\nasked on\\012two lines\nremembered line\n");
        const { server, screen, type, press, waitForScreen } = await startMarvin([], { NO_COLOR: "1" });
        press("Up");
        await waitForScreen((text) => text.trimEnd().endsWith("> remembered line"));
        press("Up");
        await waitForScreen((text) => text.trimEnd().endsWith("> asked on\ntwo lines"));
        press("Up");
        await waitForScreen((text) => text.trimEnd().endsWith("> an old question"));
        press("C-u");
        type("help");
        press("Enter");
        await waitForScreen((text) => text.includes("[System] Commands (") && text.trimEnd().endsWith("\n>"));
        expect(screen(true)).not.toMatch(/\x1b\[3\dm/);
        press("C-d");
        await waitForScreen((text) => text.includes("MARVIN-EXITED-0"));
        expect(server.requests).toHaveLength(0);
        expect(readFileSync(join(profile, "history"), "utf8")).toBe(
          "an old question\nasked on\\012two lines\nremembered line\nhelp\n",
        );
      },
    );
  },
);
