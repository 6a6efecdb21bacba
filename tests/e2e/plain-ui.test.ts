import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { WELCOME_HINT } from "../../src/ui/commands/welcome-hint.js";
import { test as base, describe, expect } from "../support/fixtures.js";
import { fixtureImage } from "../support/images.js";
import { type LlmServer, type Script, userWords } from "../support/llm-server.js";
import { startNtfyServer } from "../support/ntfy-server.js";
import { MARVIN_BIN, type MarvinRun, runMarvin, serverEnv, steadyTimings } from "../support/run-marvin.js";
import { startTranscriptionServer } from "../support/transcription-server.js";

const profileFile = (home: string, name: string) => join(home, ".config", "local-finder", "profiles", "main", name);

type Plain = (
  script: Script[],
  stdin: string,
  args?: string[],
  extraEnv?: Record<string, string | undefined>,
) => Promise<{ run: MarvinRun; server: LlmServer }>;

/** `plain(script, stdin, args, extraEnv)`: one `marvin --plain` run against a scripted server of its own. */
const test = base.extend<{ plain: Plain }>({
  plain: async ({ llm, home }, use) =>
    use(async (script, stdin, args = [], extraEnv = {}) => {
      const server = await llm(script);
      const run = await runMarvin(["--plain", ...args], {
        env: serverEnv(server.url, home, extraEnv),
        cwd: home,
        stdin,
      });
      return { run, server };
    }),
});

describe("marvin --plain driven through pipes", () => {
  test("shows the model's reasoning on lines of its own, before the answer", async ({ plain }) => {
    const { run } = await plain(
      [{ text: "Two minutes.", reasoning: "Green tea: two minutes at 80 degrees." }],
      "how long for green tea?\n",
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("> how long for green tea?\nGreen tea: two minutes at 80 degrees.\n\nTwo minutes.\n");
  });

  test(
    "runs a full turn with a tool round, saves the chat log and input history, and shows them in " + "the next run",
    async ({ plain, home }) => {
      const { run: first, server } = await plain(
        [
          {
            text: "Starting it.",
            toolCalls: [{ name: "timer_start", arguments: { name: "tea", duration_seconds: 120 } }],
          },
          { text: "Your tea timer is running." },
        ],
        "start a tea timer\n",
      );
      expect(first.code).toBe(0);
      expect(steadyTimings(first.stdout)).toContain(
        '> start a tea timer\nStarting it.\n  🔧 timer_start  "tea"\n' +
          "  ✓ timer_start  \"tea\" · …s · Countdown 'tea' started: 2m 00s.\nYour tea timer is running.\n",
      );
      expect(first.stdout).not.toContain("\x1b["); // no colours when stdout is a pipe
      expect(server.requests[1]!.body.messages.at(-1)!.content).toContain("Countdown 'tea' started");

      const log = JSON.parse(readFileSync(profileFile(home, "chat_log.json"), "utf8")) as Array<{
        role: string;
        text: string;
        time: string;
      }>;
      expect(log.map(({ role, text }) => ({ role, text }))).toEqual([
        { role: "you", text: "start a tea timer" },
        { role: "assistant", text: "Starting it.Your tea timer is running." },
      ]);
      for (const entry of log) expect(entry.time).toMatch(/^\d\d:\d\d$/);

      const { run: second, server: secondServer } = await plain([{ text: "It is still running." }], "and now?\n");
      expect(second.code).toBe(0);
      expect(second.stdout).toMatch(
        /── Recent conversation \(2 of 2 messages\) ──\n\[\d\d:\d\d\] You: start a tea timer\n\[\d\d:\d\d\] Marvin: Starting it\.Your tea timer is running\.\n── end of recent conversation ──\n/,
      );
      // A new conversation: the earlier one reaches the model only as the system message's compact history.
      const messages = secondServer.requests[0]!.body.messages;
      expect(messages.map((message) => message.role)).toEqual(["system", "user"]);
      expect(messages[0]!.content).toMatch(/\[\d\d:\d\d\] you: start a tea timer\n/);
      expect(userWords(messages[1]!.content)).toBe("and now?");
      expect(readFileSync(profileFile(home, "history"), "utf8")).toBe("start a tea timer\nand now?\n");
    },
  );

  test(
    "answers the positional prompt first, then reads the next lines until end of input, echoing " + "each line once",
    async ({ plain }) => {
      const { run, server } = await plain([{ text: "Sunny." }, { text: "You're welcome." }], "thanks\n", [
        "what's the weather?",
      ]);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`${WELCOME_HINT}\n> what's the weather?\nSunny.\n> thanks\nYou're welcome.\n`);
      expect(server.requests.map((request) => userWords(request.body.messages.at(-1)!.content))).toEqual([
        "what's the weather?",
        "thanks",
      ]);
    },
  );

  test("is what `marvin` runs when stdout is not a terminal, and shows a warning about a corrupt chat log", async ({
    llm,
    home,
  }) => {
    mkdirSync(join(home, ".config", "local-finder", "profiles", "main"), { recursive: true });
    writeFileSync(profileFile(home, "chat_log.json"), "{ not json");
    const server = await llm([{ text: "Hi." }]);
    const run = await runMarvin(["hello"], { env: serverEnv(server.url, home), cwd: home, stdin: "" });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/\[System\] Could not read .*chat_log\.json: it is not valid JSON/);
    expect(run.stdout).toContain("> hello\nHi.\n");
  });

  test("prints no escape sequence from outside: answers, saved titles, ntfy notifications, directory names", async ({
    plain,
    home,
    httpServers,
  }) => {
    // Clipboard write, window title and clear screen, in their 7- and 8-bit forms.
    const injected = "\x1b]52;c;cHduZWQ=\x07\x1b]0;pwned\x07\u009d0;pwned\u009c\x1b[2J\u009b2J";
    const terminalControls = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;
    const { run: first } = await plain(
      [{ text: `Hi.${injected} Noted.` }],
      `${injected}Evil title\n!printf '\\033]0;pwned\\007shell says hi\\n'\n`,
    );
    expect(first.stdout).toContain("> Evil title\nHi. Noted.\n");
    expect(first.stdout).toContain("\nshell says hi\n");
    expect(first.stdout).not.toMatch(terminalControls);

    const ntfy = await startNtfyServer(httpServers);
    writeFileSync(
      profileFile(home, "ntfy_subscriptions.json"),
      JSON.stringify({ "family-x7Qp": { label: "Family", url: `${ntfy.origin}/family-x7Qp` } }),
    );
    ntfy.add("family-x7Qp", `${injected}Dinner is ready`);
    const project = join(home, `project${injected}`);
    mkdirSync(project);
    const { run: second } = await plain([{ text: "Enjoy." }], "anything new?\nsessions\n", ["--working-dir", project], {
      MARVIN_NTFY_URL: ntfy.origin,
    });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`coding mode in ${join(home, "project")}.`);
    expect(second.stdout).toMatch(/\] You: Evil title\n/); // the recent conversation
    expect(second.stdout).toMatch(/\[System\] 🔔 .*Dinner is ready/);
    expect(second.stdout).toMatch(/ 1\. anything new\?[\s\S]* 2\. Evil title\n/);
    expect(second.stdout).not.toMatch(terminalControls);
  });

  test("prints the untrusted-project MCP notice after the welcome and the recent conversation, by the prompt", async ({
    plain,
    home,
    workspace,
  }) => {
    mkdirSync(join(workspace, ".marvin"));
    writeFileSync(
      join(workspace, ".marvin", "mcp.json"),
      JSON.stringify({ mcpServers: { tool: { command: "true" } } }),
    );
    mkdirSync(profileFile(home, ""), { recursive: true });
    writeFileSync(
      profileFile(home, "chat_log.json"),
      JSON.stringify([{ role: "you", text: "earlier", time: "09:00" }]),
    );
    const { run } = await plain([], "", ["--working-dir", workspace]);
    expect(run.code).toBe(0);
    const lines = run.stdout.split("\n");
    const notice = lines.findIndex((line) => line.includes("lists MCP servers, but this project is not trusted"));
    expect(lines[0]).toMatch(/^\[System\] Marvin — /);
    expect(notice).toBeGreaterThan(lines.indexOf("── end of recent conversation ──"));
  });

  test("handles the commands locally, in their word, ! and / forms, and stops at /exit", async ({ plain, home }) => {
    const placesDir = join(home, ".config", "local-finder", "profiles", "main");
    mkdirSync(placesDir, { recursive: true });
    writeFileSync(
      join(placesDir, "saved_places.json"),
      JSON.stringify([
        { label: "gym", name: "Iron Gym", address: "5 Oak Rd", phone: "", website: "", lat: 0, lng: 0, notes: "" },
      ]),
    );
    mkdirSync(join(home, ".config", "local-finder", "profiles", "work"));
    const lines = [
      "usage",
      "profiles",
      "saved",
      "!code",
      "!echo hi",
      "!sh",
      "echo from-shell-mode",
      "!sh",
      "!model",
      "!model nope",
      "!voice",
      "help",
      "/help",
      "/usage",
      "/mdoel groq",
      "/etc/hosts looks odd",
      "/exit",
      "this is never sent",
    ];
    const { run, server } = await plain([], `${lines.join("\n")}\n`);
    expect(run.code).toBe(0);
    const out = run.stdout;
    expect(out).toContain("> usage\n[System] This session: $0.0000 · 0 LLM calls");
    expect(out).toContain("> profiles\n[System] Profiles:\n  * main (active)\n    work\n");
    expect(out).toContain("> saved\n[System] Saved places (1):\n  gym — Iron Gym, 5 Oak Rd\n");
    expect(out).toContain(`> !code\n[System] Coding mode ON: working directory ${home}`);
    expect(out).toContain("> !echo hi\nhi\n> !sh\n[System] Shell mode ON");
    expect(out).toContain("$ echo from-shell-mode\nfrom-shell-mode\n$ !sh\n[System] Shell mode OFF");
    expect(out).toContain("> !model\n[System] Current: openai-compat · gpt-4o-mini\nModels of openai-compat:\n");
    expect(out).toContain("> !model nope\n[System] 'nope' is neither a provider nor a model of openai-compat");
    expect(out).toContain("> !voice\n[System] Voice input needs GROQ_API_KEY (Groq's Whisper transcribes");
    expect(out).toContain("> help\n[System] Commands");
    expect(out).toContain("> /help\n[System] Commands");
    expect(out).toContain("> /usage\n[System] This session: $0.0000");
    expect(out).toContain("> /mdoel groq\n[System] /mdoel is not a command. Did you mean /model?");
    expect(out).toContain("> /etc/hosts looks odd\n[System] /etc/hosts is not a command.");
    expect(out).toContain("> /exit\n");
    expect(out).not.toContain("this is never sent");
    expect(server.requests).toHaveLength(0);
  });

  test("prints an edit's diff with +/- and no colours into a pipe, cut after 60 lines", async ({ plain, home }) => {
    const project = join(home, "project");
    mkdirSync(project);
    writeFileSync(join(project, "answer.ts"), "const answer = 41;\n");
    const big = Array.from({ length: 80 }, (_, index) => `line ${index + 1}\n`).join("");
    const { run } = await plain(
      [
        {
          toolCalls: [
            { name: "apply_patch", arguments: { path: "answer.ts", old_str: "41", new_str: "42" } },
            { name: "create_file", arguments: { path: "big.txt", content: big } },
          ],
        },
        { text: "Done." },
      ],
      "edit\n",
      ["--working-dir", project],
    );
    expect(run.code).toBe(0);
    expect(steadyTimings(run.stdout)).toContain(
      "  ✓ apply_patch  answer.ts · …s · Patched answer.ts: replaced 1 line(s) with 1 at line 1. Now: (+1 lines)\n" +
        "    --- a/answer.ts\n    +++ b/answer.ts\n    @@ -1,1 +1,1 @@\n" +
        "    -const answer = 41;\n    +const answer = 42;\n",
    );
    expect(run.stdout).toContain("    +line 57\n    … 23 more lines\n");
    expect(run.stdout).not.toContain("\x1b[");
  });

  test("asks before run_command, showing the exact command, and takes y / n from stdin", async ({ plain, home }) => {
    const project = join(home, "project");
    mkdirSync(project);
    const { run, server } = await plain(
      [
        { toolCalls: [{ name: "run_command", arguments: { command: "echo confirmed-output" } }] },
        { text: "It printed the text." },
        { toolCalls: [{ name: "run_command", arguments: { command: "touch should-not-exist" } }] },
        { text: "Fine, I did not run it." },
      ],
      "run the echo\ny\nnow touch a file\nn\n",
      ["--working-dir", project],
    );
    expect(run.code).toBe(0);
    // The call with its command, the question, the command's output as it streams, then the summary line.
    expect(steadyTimings(run.stdout)).toContain(
      "  🔧 run_command  echo confirmed-output\nRun `echo confirmed-output`? [y/N] y\n    │ confirmed-output\n" +
        "  ✓ run_command  echo confirmed-output · …s · Exit code: 0 (0s) (+1 lines)\nIt printed the text.\n",
    );
    expect(steadyTimings(run.stdout)).toContain(
      "  🔧 run_command  touch should-not-exist\nRun `touch should-not-exist`? [y/N] n\n" +
        "  ✓ run_command  touch should-not-exist · …s · The user declined to run this command: touch " +
        "should-not-exist (+1 lines)\nFine, I did not run it.\n",
    );
    expect(server.requests[1]!.body.messages.at(-1)!.content).toMatch(/Exit code: 0[\s\S]*confirmed-output/);
    expect(server.requests[3]!.body.messages.at(-1)!.content).toContain(
      "The user declined to run this command: touch should-not-exist",
    );
    expect(existsSync(join(project, "should-not-exist"))).toBe(false);
  });

  test("switches the model mid-conversation with !model", async ({ plain }) => {
    const { run, server } = await plain(
      [{ text: "one" }, { text: "two" }],
      "first\n!model openai-compat other-model\nsecond\n",
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("[System] Now using openai-compat · other-model; the conversation continues.");
    expect(server.requests.map((request) => request.body.model)).toEqual(["gpt-4o-mini", "other-model"]);
    expect(server.requests[1]!.body.messages.slice(1).map((message) => userWords(message.content))).toEqual([
      "first",
      "one",
      "second",
    ]);
  });

  test("!v records through the recorder, and the transcript goes to the model as the user's message", async ({
    plain,
    httpServers,
  }) => {
    const whisper = await startTranscriptionServer(httpServers, ["remind me to water the plants"]);
    const { run, server } = await plain([{ text: "Noted: water the plants." }], "!v 1\n", [], {
      // sox standing in for the microphone: a second of tone, 16 kHz mono WAV.
      MARVIN_RECORD_COMMAND: "sox -n -r 16000 -c 1 -b 16 {file} synth 1 sine 440",
      MARVIN_WHISPER_URL: whisper.server.origin,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      "> !v 1\n[System] 🎤 Recording for 1 s… (Esc stops)\n" +
        "🎤 remind me to water the plants\nNoted: water the plants.\n",
    );
    expect(whisper.uploads).toHaveLength(1);
    expect(userWords(server.requests[0]!.body.messages.at(-1)!.content)).toBe("remind me to water the plants");
  });

  test("stops at MARVIN_MAX_COST with a line saying how to go on, and cap raises it for the next message", async ({
    plain,
  }) => {
    const { run, server } = await plain(
      [
        {
          toolCalls: [{ name: "timer_start", arguments: { name: "tea" } }],
          usage: { prompt: 1_000_000, completion: 0 },
        },
        { text: "The stopwatch is running." },
      ],
      "start a stopwatch\ncap 0.50\ngo on\n",
      [],
      { MARVIN_MAX_COST: "0.10" },
    );
    expect(run.code).toBe(0);
    expect(steadyTimings(run.stdout)).toContain(
      "  ✓ timer_start  \"tea\" · …s · Stopwatch 'tea' started.\n" +
        "[System] Error: This conversation has cost $0.15, over its cap of $0.10 (MARVIN_MAX_COST); " +
        'Marvin stopped before the next request. Type "cap 0.20" to raise it, then send a message to go on.\n',
    );
    expect(run.stdout).toContain(
      "> cap 0.50\n[System] This conversation's spending cap is now $0.50; $0.15 spent so far.\n" +
        "> go on\nThe stopwatch is running.\n",
    );
    expect(server.requests).toHaveLength(2);
    expect(userWords(server.requests[1]!.body.messages.at(-1)!.content)).toBe("go on");
  });

  test("stops quietly when the reader of stdout goes away (| head)", async ({ llm, home }) => {
    const server = await llm([{ text: "line of a long answer\n".repeat(3_000), chunkSize: 40, delayMs: 1 }]);
    const child = spawn(process.execPath, [MARVIN_BIN, "--plain"], {
      env: serverEnv(server.url, home) as NodeJS.ProcessEnv,
      cwd: home,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (data: string) => (stderr += data));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    child.stdout.on("data", (data: Buffer) => {
      if (data.toString().includes("line of a long answer")) child.stdout.destroy();
    });
    child.stdin.end("tell me a long story\nand another\n");
    expect(await exited).toBe(0);
    expect(stderr).toBe(""); // not a word: the reader has what it wanted
    expect(server.requests).toHaveLength(1);
  });

  test("stops a streaming answer on SIGINT, keeps the partial text, and goes on with the next line", async ({
    llm,
    home,
  }) => {
    const server = await llm([{ text: "word ".repeat(400), chunkSize: 5, delayMs: 20 }, { text: "Back again." }]);
    const child = spawn(process.execPath, [MARVIN_BIN, "--plain"], {
      env: serverEnv(server.url, home) as NodeJS.ProcessEnv,
      cwd: home,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (data: string) => (stdout += data));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    try {
      child.stdin.write("tell me a long story\n");
      await waitFor(
        () => (stdout.match(/word/g) ?? []).length >= 5,
        () => stdout,
      );
      child.kill("SIGINT");
      await waitFor(
        () => stdout.includes("[System] Stopped. The partial answer is kept."),
        () => stdout,
      );
      child.stdin.end("and then?\n");
      expect(await exited).toBe(0);
    } finally {
      child.kill("SIGKILL");
    }
    expect(stdout).toContain("> and then?\nBack again.\n");
    expect(server.requests).toHaveLength(2);
    const partial = server.requests[1]!.body.messages.at(-2)!;
    expect(partial.role).toBe("assistant");
    expect(partial.content).toMatch(/^(word )+/);
    expect(partial.content!.length).toBeLessThan("word ".repeat(400).length);
  });
});

async function waitFor(condition: () => boolean, describe: () => string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting; output so far:\n${describe()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("images through the plain UI", () => {
  test("a pasted image path goes to a vision model; a model without vision is refused and asked nothing", async ({
    plain,
    home,
  }) => {
    writeFileSync(join(home, "shot.png"), fixtureImage("tiny.png"));
    const seen = await plain([{ text: "A dark picture." }], "what is in shot.png?\n");
    expect(seen.run.stdout).toContain("Attached to the message: shot.png (PNG, 2×3, 97 B).");
    const parts = seen.server.requests[0]!.body.messages.at(-1)!.content as unknown as Array<{ type: string }>;
    expect(parts.map((part) => part.type)).toEqual(["text", "image_url"]);

    const blind = await plain([{ text: "never asked" }], "what is in @shot.png?\n", [], {
      OPENAI_COMPAT_MODEL: "qwen3:8b",
    });
    expect(blind.server.requests).toHaveLength(0);
    expect(blind.run.stdout).toContain("qwen3:8b cannot read images, so nothing was sent. Switch with /model");
    expect(blind.run.stdout).not.toContain("Attached to the message");
  });
});
