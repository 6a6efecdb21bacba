import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { localDay } from "../../src/state/usage.js";
import { test as base, describe, expect } from "../support/fixtures.js";
import { fixtureImage } from "../support/images.js";
import type { LlmServer, Script, ScriptedReply } from "../support/llm-server.js";
import { contextNoteOf, userWords } from "../support/llm-server.js";
import { costOf, MARVIN_BIN, type MarvinRun, runMarvin, serverEnv } from "../support/run-marvin.js";
import { scriptedCopilot } from "../support/scripted-copilot.js";
import { TmuxMarvin, tmuxAvailable } from "../support/tmux.js";

type Ask = (
  script: Script[],
  prompt?: string,
  extraEnv?: Record<string, string | undefined>,
  args?: string[],
) => Promise<{ run: MarvinRun; server: LlmServer }>;

/** `ask(script, prompt, extraEnv, args)`: one `marvin --non-interactive` run against a scripted server of its own. */
const test = base.extend<{ ask: Ask }>({
  ask: async ({ llm, home }, use) =>
    use(async (script, prompt = "hello", extraEnv = {}, args = []) => {
      const server = await llm(script);
      const run = await runMarvin(["--non-interactive", "--prompt", prompt, ...args], {
        env: serverEnv(server.url, home, extraEnv),
        cwd: home,
      });
      return { run, server };
    }),
});

describe("marvin --non-interactive against an OpenAI-compatible server", () => {
  test("counts the input the provider served from its prompt cache in the cost line, at the cached price", async ({
    ask,
  }) => {
    const { run } = await ask([{ text: "Cached.", usage: { prompt: 10_000, completion: 100, cached: 9_000 } }]);
    expect(run.code).toBe(0);
    const cost = costOf(run);
    expect(cost.cached_tokens).toEqual({ "gpt-4o-mini": 9_000 });
    expect(cost.session_cost).toBeCloseTo((1_000 * 0.15 + 9_000 * 0.075 + 100 * 0.6) / 1e6, 9);
  });

  test("streams the answer to stdout and ends stderr with the cost line", async ({ ask }) => {
    const { run, server } = await ask([
      { text: "Hello from the scripted model.", usage: { prompt: 1000, completion: 200 } },
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Hello from the scripted model.\n");
    const cost = costOf(run);
    expect(cost.llm_turns).toBe(1);
    expect(cost.model_turns).toEqual({ "gpt-4o-mini": 1 });
    // gpt-4o-mini: $0.15 / $0.60 per million tokens
    expect(cost.session_cost).toBeCloseTo((1000 * 0.15 + 200 * 0.6) / 1e6, 9);
    const request = server.requests[0]!;
    expect(request.body.model).toBe("gpt-4o-mini");
    expect(request.body.stream).toBe(true);
    expect(request.headers.authorization).toBe("Bearer test-key");
    expect(request.body.messages[0]!.role).toBe("system");
    expect(request.body.messages[0]!.content).toContain("You are Marvin");
    expect(request.body.messages.map((message) => message.role)).toEqual(["system", "user"]);
    expect(userWords(request.body.messages[1]!.content)).toBe("hello");
    expect(contextNoteOf(request.body.messages[1]!.content)).toMatch(
      /^<context>\nCurrent date and time: .+ \d\d:\d\d /,
    );
    expect(request.body.messages[0]!.content).not.toMatch(/\d\d:\d\d:\d\d/);
  });

  test("prints a tool marker before each tool round and feeds results back with their ids", async ({ ask }) => {
    const { run, server } = await ask([
      {
        text: "Let me start it.",
        toolCalls: [{ name: "timer_start", arguments: { name: "tea", duration_seconds: 180 }, id: "call_a" }],
      },
      { toolCalls: [{ name: "timer_check", arguments: { name: "tea" }, id: "call_b" }] },
      { text: "Your tea timer is running." },
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Let me start it.\n  🔧 timer_start\n  🔧 timer_check\nYour tea timer is running.\n");
    const second = server.requests[1]!.body.messages;
    expect(second.at(-2)).toMatchObject({
      role: "assistant",
      tool_calls: [{ id: "call_a", function: { name: "timer_start" } }],
    });
    expect(second.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_a" });
    expect(second.at(-1)!.content).toContain("Countdown 'tea' started: 3m 00s");
    expect(server.requests[2]!.body.messages.at(-1)!.content).toMatch(/Countdown 'tea': \dm \d\ds left of 3m 00s/);
    expect(costOf(run).llm_turns).toBe(3);
  });

  test("runs parallel calls of one response in one round and returns results in call order", async ({ ask }) => {
    const { run, server } = await ask([
      {
        toolCalls: [
          { name: "timer_start", arguments: { name: "one" }, id: "first" },
          { name: "timer_start", arguments: { name: "two", duration_seconds: 60 }, id: "second" },
          { name: "timer_check", arguments: {}, id: "third" },
        ],
      },
      { text: "done" },
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("  🔧 timer_start, timer_start, timer_check\ndone\n");
    const tools = server.requests[1]!.body.messages.filter((message) => message.role === "tool");
    expect(tools.map((message) => message.tool_call_id)).toEqual(["first", "second", "third"]);
    expect(tools[0]!.content).toBe("Stopwatch 'one' started.");
    expect(tools[1]!.content).toBe("Countdown 'two' started: 1m 00s.");
  });

  test("repairs arguments sent as a JSON string and explains raw-string arguments", async ({ ask }) => {
    const { run, server } = await ask([
      {
        toolCalls: [{ name: "timer_start", arguments: JSON.stringify(JSON.stringify({ name: "encoded" })), id: "s1" }],
      },
      { toolCalls: [{ name: "timer_start", arguments: "name=broken", id: "s2" }] },
      { text: "ok" },
    ]);
    expect(run.code).toBe(0);
    const results = server.requests[2]!.body.messages.filter((message) => message.role === "tool");
    expect(results[0]!.content).toBe("Stopwatch 'encoded' started.");
    expect(results[1]!.content).toContain("must be a JSON object, not a raw string");
    expect(results[1]!.content).toContain("name (string, required)");
    expect(results[1]!.content).toContain('Example: timer_start({"name":"..."})');
  });

  test("answers unknown tools and invalid arguments with actionable errors", async ({ ask }) => {
    const { run, server } = await ask([
      {
        toolCalls: [
          { name: "timer_stat", arguments: {}, id: "u1" },
          { name: "timer_start", arguments: { duration_seconds: "soon" }, id: "u2" },
        ],
      },
      { text: "ok" },
    ]);
    expect(run.code).toBe(0);
    const [unknown, invalid] = server.requests[1]!.body.messages.filter((message) => message.role === "tool");
    expect(unknown!.content).toContain("Unknown tool 'timer_stat'. Did you mean: timer_start");
    expect(invalid!.content).toContain("Validation error for timer_start");
    expect(invalid!.content).toContain("- name: required (string)");
    expect(invalid!.content).toContain("- duration_seconds:");
    expect(invalid!.content).toContain("Correct usage: timer_start(");
  });

  test("stops after 50 tool rounds and asks once more without tools", async ({ ask }) => {
    const script: Script[] = Array.from({ length: 50 }, (_, index) => ({
      toolCalls: [{ name: "timer_check", arguments: {}, id: `r${index}` }],
    }));
    script.push({ text: "Final answer after the limit." });
    const { run, server } = await ask(script);
    expect(run.code).toBe(0);
    expect(server.requests).toHaveLength(51);
    expect(server.requests[49]!.body.tools?.length).toBeGreaterThan(0);
    expect(server.requests[50]!.body.tools).toBeUndefined();
    expect(server.requests[50]!.body.messages.at(-1)!.content).toContain("Tool-call limit reached (50 rounds)");
    expect(run.stdout.match(/🔧 timer_check/g)).toHaveLength(50);
    expect(run.stdout.endsWith("Final answer after the limit.\n")).toBe(true);
    expect(run.stderr).toContain("Reached the limit of 50 tool rounds");
    expect(costOf(run).llm_turns).toBe(51);
  });

  test("waits for Retry-After on 429 and then succeeds", async ({ ask }) => {
    const { run, server } = await ask([
      { status: 429, headers: { "retry-after": "1" }, body: { error: { message: "slow down" } } },
      { text: "after the wait" },
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("after the wait\n");
    expect(run.stderr).toContain("Rate limited by openai-compat. Waiting 1s before retry 1 of 2");
    expect(server.requests).toHaveLength(2);
  });

  test("gives up after two 429 retries with a clear error", async ({ ask }) => {
    const limited = { status: 429, headers: { "retry-after": "0" }, body: { error: { message: "quota exceeded" } } };
    const { run, server } = await ask([limited, limited, limited]);
    expect(run.code).toBe(1);
    expect(server.requests).toHaveLength(3);
    expect(run.stderr).toContain("Error: openai-compat rate limit (HTTP 429): quota exceeded");
    expect(costOf(run).llm_turns).toBe(0);
  });

  test("names the variable to check on 401", async ({ ask }) => {
    const { run, server } = await ask([
      { status: 401, body: { error: { message: "Invalid API key", type: "invalid_request_error" } } },
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "refused the API key (HTTP 401): Invalid API key. Check OPENAI_COMPAT_API_KEY (or ~/.ssh/OPENAI_COMPAT_API_KEY).",
    );
    expect(server.requests).toHaveLength(1);
    costOf(run);
  });

  test("hands a local provider's conversation to Copilot only with MARVIN_COPILOT_FALLBACK=on", async ({
    llm,
    home,
    tempDirs,
  }) => {
    const copilot = await scriptedCopilot(await tempDirs.make(), [{ text: "Copilot here." }]);
    const refused = { status: 401, body: { error: { message: "Invalid API key" } } };
    const server = await llm([refused, refused]);
    // A usable Copilot: the scripted runtime and a GitHub token.
    const env = { ...copilot.env, ...serverEnv(server.url, home), GH_TOKEN: "gho_test" };
    const ask = (extra: Record<string, string> = {}) =>
      runMarvin(["--non-interactive", "--prompt", "my private thoughts"], { env: { ...env, ...extra }, cwd: home });

    const local = await ask();
    expect(local.code).toBe(1);
    expect(local.stderr).toContain("refused the API key (HTTP 401)");
    expect(await copilot.calls()).toEqual([]);

    const optedIn = await ask({ MARVIN_COPILOT_FALLBACK: "on" });
    expect(optedIn.code, optedIn.stderr).toBe(0);
    expect(optedIn.stdout).toBe("Copilot here.\n");
    expect(optedIn.stderr).toContain("— falling back to Copilot.");
    expect((await copilot.prompts()).map((sent) => sent.prompt)).toEqual([expect.stringContaining("my private")]);
    expect(server.requests).toHaveLength(2);
  }, 60_000);

  test("retries a 500 and reports it when it persists", async ({ ask }) => {
    const failing = { status: 500, body: { error: { message: "upstream exploded" } } };
    const { run, server } = await ask([failing, failing, failing]);
    expect(run.code).toBe(1);
    expect(server.requests).toHaveLength(3);
    expect(run.stderr).toContain("server error (HTTP 500): upstream exploded");
    costOf(run);
  }, 30_000);

  test("keeps the answer on stdout as the model wrote it, and stderr free of escape sequences", async ({ ask }) => {
    const injected = "\x1b]0;pwned\x07\x1b[2J\u009b2J";
    const { run: answered } = await ask([{ text: `Plain${injected} text` }]);
    expect(answered.stdout).toBe(`Plain${injected} text\n`);
    const { run: refused } = await ask([{ status: 401, body: { error: { message: `Invalid${injected} key` } } }]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("(HTTP 401): Invalid key.");
    expect(refused.stderr).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
  });

  test("makes the answer safe to print too when stdout is a terminal", async ({ llm, home, tempDirs }) => {
    if (!(await tmuxAvailable())) throw new Error("tmux is needed for this test: apt-get install -y tmux");
    const server = await llm([{ text: "Plain\x1b]52;c;cHduZWQ=\x07\x1b]0;pwned\x07\x1b[2J\u009b2J text" }]);
    const outputFile = join(await tempDirs.make("marvin-terminal-output-"), "terminal.out");
    const args = ["--non-interactive", "--prompt", "hi"];
    const marvin = await TmuxMarvin.start({ env: serverEnv(server.url, home), args, cwd: home, outputFile });
    try {
      await marvin.waitFor("MARVIN_EXITED=0");
      const written = readFileSync(outputFile, "utf8");
      expect(written).toContain("Plain text");
      expect(written).not.toContain("pwned");
      expect(written).not.toMatch(/[\x07\u0080-\u009f]|\x1b\]|\x1b\[2J/);
    } finally {
      await marvin.kill();
    }
  });

  test("keeps the partial text and fails clearly when the stream is cut", async ({ ask }) => {
    const { run, server } = await ask([
      { cut: { text: "This answer will be interrupted somewhere in the middle", afterChunks: 3 } },
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("This answer \n");
    expect(run.stderr).toMatch(/Error: .*(ended before the model finished|stream failed|terminated)/);
    expect(server.requests).toHaveLength(1);
    costOf(run);
  });

  test("stops quietly, with the cost line last, when the reader of stdout goes away (| head)", async ({
    llm,
    home,
  }) => {
    const server = await llm([{ text: "line of a long answer\n".repeat(3_000), chunkSize: 40, delayMs: 1 }]);
    const child = spawn(process.execPath, [MARVIN_BIN, "--non-interactive", "--prompt", "long"], {
      env: serverEnv(server.url, home) as NodeJS.ProcessEnv,
      cwd: home,
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (data: string) => (stderr += data));
    child.stdout.once("data", () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(1); // the answer was cut short
    expect(stderr).not.toContain("EPIPE");
    expect(stderr).not.toContain("Error");
    expect(stderr.trimEnd().split("\n")).toEqual([expect.stringMatching(/^MARVIN_COST:\{/)]);
  });

  test("pushes the answer to the --ntfy topic, and only warns when ntfy cannot be reached", async ({ ask }) => {
    const published: Array<{ path: string; body: unknown }> = [];
    const ntfy = createServer((request, response) => {
      let body = "";
      request.setEncoding("utf8").on("data", (data: string) => (body += data));
      request.on("end", () => {
        published.push({ path: request.url ?? "", body: JSON.parse(body) });
        // ntfy's answer to a publish: its record of the message.
        const record = { id: "hV2yIaQyrVaR", time: 1_764_150_000, event: "message", topic: "build-alerts" };
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(record));
      });
    });
    await new Promise<void>((resolve) => ntfy.listen(0, "127.0.0.1", resolve));
    const ntfyUrl = `http://127.0.0.1:${(ntfy.address() as AddressInfo).port}`;
    try {
      const { run } = await ask([{ text: "The tests pass." }], "run the tests", { NTFY_URL: ntfyUrl }, [
        "--ntfy",
        "build-alerts",
      ]);
      expect(run.code).toBe(0);
      // The same JSON publishing as the ntfy tools (a POST to the server's root), so no title becomes a header.
      expect(published).toEqual([
        {
          path: "/",
          body: {
            topic: "build-alerts",
            title: "Marvin: answer ready",
            message: "The tests pass.",
            tags: ["white_check_mark"],
          },
        },
      ]);
    } finally {
      await new Promise((resolve) => ntfy.close(resolve));
    }
    const { run: unreachable } = await ask([{ text: "Done anyway." }], "hi", { NTFY_URL: ntfyUrl }, [
      "--ntfy",
      "build-alerts",
    ]);
    expect(unreachable.code).toBe(0);
    expect(unreachable.stdout).toBe("Done anyway.\n");
    expect(unreachable.stderr).toContain(`Could not notify ntfy topic 'build-alerts': Nothing answers at ${ntfyUrl}`);
    costOf(unreachable);
  });

  test.for(["SIGINT", "SIGTERM"] as const)(
    "on %s keeps the streamed text, says it was interrupted, and still ends with the cost line, which counts " +
      "its tokens",
    async (signal, { llm, home }) => {
      const server = await llm([{ text: "word ".repeat(400), chunkSize: 5, delayMs: 20 }]);
      const child = spawn(process.execPath, [MARVIN_BIN, "--non-interactive", "--prompt", "talk"], {
        env: serverEnv(server.url, home) as NodeJS.ProcessEnv,
        cwd: home,
      });
      let stdout = "";
      let stderr = "";
      let signalled = false;
      child.stdout.setEncoding("utf8").on("data", (data: string) => {
        stdout += data;
        if (!signalled && (stdout.match(/word/g) ?? []).length >= 5) signalled = child.kill(signal);
      });
      child.stderr.setEncoding("utf8").on("data", (data: string) => (stderr += data));
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      expect(code).toBe(1);
      expect(stdout).toMatch(/^(word )+(word)?\n$/);
      expect(stdout.length).toBeLessThan("word ".repeat(400).length);
      expect(stderr).toContain("Error: interrupted");
      const costLine = stderr.trimEnd().split("\n").at(-1)!;
      expect(costLine).toMatch(/^MARVIN_COST:\{/);
      const cost = JSON.parse(costLine.slice("MARVIN_COST:".length));
      expect(cost.llm_turns).toBe(1); // the interrupted answer's tokens are counted
      expect(cost.input_tokens["gpt-4o-mini"]).toBeGreaterThan(0);
      expect(cost.output_tokens["gpt-4o-mini"]).toBeGreaterThanOrEqual(5);
    },
  );

  test("reads the prompt from stdin", async ({ llm, home }) => {
    const server = await llm([{ text: "got it" }]);
    const run = await runMarvin(["--non-interactive"], {
      env: serverEnv(server.url, home),
      stdin: "prompt from a pipe\n",
      cwd: home,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("got it\n");
    expect(userWords(server.requests[0]!.body.messages.at(-1)!.content)).toBe("prompt from a pipe\n");
  });

  test("fails with exit 1 and the cost line when no prompt is given", async ({ home }) => {
    const run = await runMarvin(["--non-interactive"], {
      env: serverEnv("http://127.0.0.1:9/v1", home),
      stdin: "",
    });
    expect(run.code).toBe(1);
    expect(run.stderrLines[0]).toBe("Error: --prompt required (or pipe the prompt on stdin)");
    expect(costOf(run)).toMatchObject({ session_cost: 0, llm_turns: 0 });
  });

  test("puts compact history in the system message but never seeds or writes the chat log", async ({ llm, home }) => {
    const profile = join(home, ".config", "local-finder", "profiles", "main");
    const log = [
      { role: "you", text: "What is a good ramen place near home?", time: "12:01" },
      { role: "assistant", text: "x".repeat(500), time: "12:02" },
    ];
    const server = await llm([{ text: "fine" }]);
    const { mkdirSync } = await import("node:fs");
    mkdirSync(profile, { recursive: true });
    writeFileSync(join(profile, "chat_log.json"), JSON.stringify(log));
    const run = await runMarvin(["--non-interactive", "-p", "next question"], {
      env: serverEnv(server.url, home),
      cwd: home,
    });
    expect(run.code).toBe(0);
    const messages = server.requests[0]!.body.messages;
    expect(messages).toHaveLength(2);
    expect(messages[0]!.content).toContain("[12:01] you: What is a good ramen place near home?");
    expect(messages[0]!.content).toContain(`[12:02] assistant: ${"x".repeat(200)}…`);
    expect(messages[0]!.content).not.toContain("x".repeat(201));
    expect(JSON.parse(readFileSync(join(profile, "chat_log.json"), "utf8"))).toEqual(log);
  });

  test("switches profile for the run only: the user's next session still opens their last profile", async ({
    ask,
    home,
  }) => {
    const config = join(home, ".config", "local-finder");
    mkdirSync(config, { recursive: true });
    writeFileSync(join(config, "last_profile"), "ada\n");
    mkdirSync(join(config, "profiles", "work"), { recursive: true });
    const office = {
      label: "office",
      name: "",
      address: "9 Work Rd",
      phone: "",
      website: "",
      lat: 0,
      lng: 0,
      notes: "",
    };
    writeFileSync(join(config, "profiles", "work", "saved_places.json"), JSON.stringify([office]));
    const { run, server } = await ask([
      { toolCalls: [{ name: "switch_profile", arguments: { profile_name: "work" } }] },
      { toolCalls: [{ name: "list_places", arguments: {} }] },
      { text: "Now in work." },
    ]);
    expect(run.code).toBe(0);
    expect(server.requests[0]!.body.messages[0]!.content).toContain("Active profile: ada");
    expect(server.requests[1]!.body.messages.at(-1)!.content).toBe("Switched to profile 'work'. Profiles: work.");
    expect(server.requests[2]!.body.messages.at(-1)!.content).toContain("- office: 9 Work Rd");
    expect(readFileSync(join(config, "last_profile"), "utf8")).toBe("ada\n");
  });

  test("MARVIN_READONLY=1 offers no write tool and refuses one the model calls anyway", async ({ ask, home }) => {
    const project = join(home, "project");
    mkdirSync(project);
    const calls = [
      { name: "write_note", arguments: { path: "review.md", content: "findings" } },
      { name: "switch_profile", arguments: { profile_name: "work" } },
    ];
    const readOnly = { MARVIN_READONLY: "1", MARVIN_TOOLS: "all" };
    const { run, server } = await ask([{ toolCalls: calls }, { text: "Refused." }], "hello", readOnly, [
      "--working-dir",
      project,
    ]);
    expect(run.code).toBe(0);
    const offered = server.requests[0]!.body.tools!.map((tool) => tool.function.name);
    expect(offered).toEqual(expect.arrayContaining(["read_file", "git_status", "read_note", "ticket_list"]));
    const writers = [
      "write_note",
      "create_ticket",
      "switch_profile",
      "update_preferences",
      "save_place",
      "file_apply_patch",
      "review_codebase",
    ];
    for (const writer of [...writers, "run_command"]) expect(offered).not.toContain(writer);
    const results = server.requests[1]!.body.messages.filter((message) => message.role === "tool").map(
      (message) => message.content,
    );
    expect(results).toEqual([
      expect.stringContaining("write_note is disabled: this is a read-only agent"),
      expect.stringContaining("switch_profile is disabled"),
    ]);
    expect(existsSync(join(project, ".marvin"))).toBe(false);
    expect(existsSync(join(home, ".config", "local-finder", "last_profile"))).toBe(false);
  });

  test("records lifetime usage in usage.json", async ({ ask, home }) => {
    const { run } = await ask([{ text: "a", usage: { prompt: 10, completion: 5 } }]);
    expect(run.code).toBe(0);
    const usage = JSON.parse(readFileSync(join(home, ".config", "local-finder", "usage.json"), "utf8"));
    expect(usage.llm_turns).toBe(1);
    expect(usage.input_tokens).toEqual({ "gpt-4o-mini": 10 });
    expect(usage.provider_cost["openai-compat"]).toBeGreaterThan(0);
  });

  test("stops before the request that would pass MARVIN_MAX_COST: exit 1, one line why, the cost line last", async ({
    ask,
  }) => {
    const { run, server } = await ask(
      [
        {
          toolCalls: [{ name: "timer_start", arguments: { name: "tea" } }],
          usage: { prompt: 1_000_000, completion: 0 },
        },
        { text: "never asked for" },
      ],
      "start a stopwatch",
      { MARVIN_MAX_COST: "0.10" },
    );
    expect(run.code).toBe(1);
    expect(server.requests).toHaveLength(1);
    expect(run.stderrLines.at(-2)).toBe(
      "Error: This conversation has cost $0.15, over MARVIN_MAX_COST=$0.10; Marvin stopped before the next request. " +
        "Raise MARVIN_MAX_COST to go on.",
    );
    expect(costOf(run)).toMatchObject({ session_cost: 0.15, llm_turns: 1, tool_calls: { timer_start: 1 } });
  });

  test("counts today's spending of earlier runs in usage.json against MARVIN_MAX_DAILY_COST", async ({ ask, home }) => {
    const usagePath = join(home, ".config", "local-finder", "usage.json");
    mkdirSync(dirname(usagePath), { recursive: true });
    writeFileSync(usagePath, JSON.stringify({ sessions: 1, daily_cost: { [localDay(new Date())]: 0.1 } }));
    const { run: first } = await ask([{ text: "ok", usage: { prompt: 1_000_000, completion: 0 } }], "hello", {
      MARVIN_MAX_DAILY_COST: "0.25",
    });
    expect(first.code).toBe(0);
    const { run: second, server } = await ask([{ text: "never asked for" }], "hello", {
      MARVIN_MAX_DAILY_COST: "0.25",
    });
    expect(second.code).toBe(1);
    expect(server.requests).toHaveLength(0);
    expect(second.stderrLines.at(-2)).toMatch(
      /^Error: Today's LLM requests have cost \$0\.25, at MARVIN_MAX_DAILY_COST=\$0\.25; .* Raise MARVIN_MAX_DAILY_COST/,
    );
    expect(costOf(second)).toMatchObject({ session_cost: 0, llm_turns: 0 });
  });

  test("writes the MARVIN_SUBAGENT_LOG audit trail", async ({ ask, home }) => {
    const logPath = join(home, "audit.jsonl");
    const { run } = await ask(
      [{ toolCalls: [{ name: "timer_start", arguments: { name: "audit", duration_seconds: 5 } }] }, { text: "ok" }],
      "hi",
      { MARVIN_SUBAGENT_LOG: logPath },
    );
    expect(run.code).toBe(0);
    const lines = readFileSync(logPath, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      tool: "timer_start",
      args: "name=audit, duration_seconds=5",
      result: "Countdown 'audit' started: 5s.",
    });
    expect(lines[0].ts).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(typeof lines[0].elapsed_ms).toBe("number");
  });

  test("streams every agent event as JSON lines with --output jsonl", async ({ ask }) => {
    const { run } = await ask([{ toolCalls: [{ name: "timer_check", arguments: {} }] }, { text: "hi" }], "x", {}, [
      "--output",
      "jsonl",
    ]);
    expect(run.code).toBe(0);
    const events = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(events[0]).toMatchObject({ type: "header", version: 1 });
    const types = events.map((event) => event.type);
    expect(types).toContain("tool_calls");
    expect(types).toContain("tool_end");
    expect(types.at(-1)).toBe("agent_end");
    expect(events.at(-1)).toMatchObject({ reason: "done", text: "hi" });
  });

  test(
    "streams the model's reasoning and the start of each tool call as JSON lines, not in the " + "text output",
    async ({ ask }) => {
      const script: Script[] = [
        {
          reasoning: "The user wants timers.",
          toolCalls: [{ name: "timer_check", arguments: { name: "tea" }, id: "call_r" }],
          fragmentSize: 3,
        },
        { text: "No timers.", reasoning: "Nothing runs." },
      ];
      const { run: jsonl } = await ask(script, "x", {}, ["--output", "jsonl"]);
      expect(jsonl.code).toBe(0);
      const events = jsonl.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
      const reasoningOf = (turn: number) =>
        events
          .filter((event) => event.type === "reasoning_delta" && event.turn === turn)
          .map((event) => event.text)
          .join("");
      expect(reasoningOf(1)).toBe("The user wants timers.");
      expect(reasoningOf(2)).toBe("Nothing runs.");
      const types = events.map((event) => event.type);
      const started = events[types.indexOf("tool_call_start")];
      expect(started).toEqual({ type: "tool_call_start", turn: 1, callId: "call_r", name: "timer_check" });
      expect(types.indexOf("tool_call_start")).toBeLessThan(types.indexOf("tool_calls"));
      const { run: text } = await ask(script, "x");
      expect(text.code).toBe(0);
      expect(text.stdout).toBe("  🔧 timer_check\nNo timers.\n");
    },
  );

  test("rejects bad flags with a one-line error, usage and exit 1", async ({ home }) => {
    const run = await runMarvin(["--non-interactive", "--provider", "nope"], {
      env: { PATH: process.env.PATH, HOME: home },
    });
    expect(run.code).toBe(1);
    expect(run.stderrLines[0]).toBe(
      "marvin: invalid value 'nope' for --provider (expected one of: copilot, anthropic, gemini, groq, mistral, " +
        "openai, openrouter, codex, ollama, openai-compat)",
    );
    expect(run.stderrLines[1]).toBe("Usage: marvin [options] [prompt]");
    costOf(run);
  });

  test("explains how to configure a provider when none is available", async ({ home }) => {
    const run = await runMarvin(["--non-interactive", "-p", "hi"], {
      env: { PATH: process.env.PATH, HOME: home, OLLAMA_URL: "http://127.0.0.1:9" },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("No LLM provider is configured");
    expect(run.stderr).toContain("LLM_PROVIDER=groq with GROQ_API_KEY");
    costOf(run);
  });

  test("uses the one configured provider when LLM_PROVIDER is unset, and says so", async ({ llm, home }) => {
    const server = await llm([{ text: "picked" }]);
    const env = {
      PATH: process.env.PATH,
      HOME: home,
      OPENAI_COMPAT_URL: server.url,
      OPENAI_COMPAT_MODEL: "m1",
      OLLAMA_URL: "http://127.0.0.1:9",
    };
    const run = await runMarvin(["--non-interactive", "-p", "hi"], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("picked\n");
    expect(run.stderr).toContain(
      "LLM_PROVIDER is not set and Copilot is not available; using openai-compat (OPENAI_COMPAT_URL is set).",
    );
  });

  test(
    "finishes in seconds, cost line included, with a 5 MB tool-call argument and a 290 KB line " + "read by range",
    async ({ ask, home }) => {
      writeFileSync(join(home, "wide.txt"), `${"=".repeat(290 * 1024)}\n`);
      const huge = "A".repeat(5 * 1024 * 1024);
      // No usage in the stream, so Marvin counts the tokens itself.
      const rounds: ScriptedReply[] = [
        {
          toolCalls: [
            { id: "call_wide", name: "read_file", arguments: { path: "wide.txt", start_line: 1, end_line: 1 } },
          ],
        },
        {
          toolCalls: [{ id: "call_big", name: "create_file", arguments: { path: "big.txt", content: huge } }],
          fragmentSize: 4096,
        },
        { text: "Done." },
      ];
      let round = 0;
      const summaryOrNextRound: Script = (request) =>
        String(request.body.messages[0]?.content).startsWith("You compress") ? { text: "Summary." } : rounds[round++]!;
      const { run, server } = await ask(
        Array.from({ length: 6 }, () => summaryOrNextRound),
        "write and read",
        {},
        ["--working-dir", home],
      );
      expect(run.code).toBe(0);
      expect(run.stdout).toBe("  🔧 read_file\n  🔧 create_file\nDone.\n");
      expect(costOf(run).llm_turns).toBeGreaterThanOrEqual(3);
      expect(readFileSync(join(home, "big.txt"), "utf8")).toBe(huge);
      const sent = server.requests.flatMap((request) => request.body.messages);
      const wide = sent.find((message) => message.role === "tool" && message.tool_call_id === "call_wide");
      expect(wide?.content).toContain(`1. ${"=".repeat(290 * 1024)}`);
    },
  );
});

describe("a conversation too long for the model", () => {
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

  test("is compacted and asked again, then answered", async ({ ask }) => {
    const round = { toolCalls: [{ name: "list_places", arguments: {} }] };
    const { run, server } = await ask(
      [round, round, round, round, round, tooLong, { text: "Summary of the rounds." }, { text: "All done." }],
      "look through my places",
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/All done\.\n$/);
    expect(run.stderr).toContain("The conversation is too long for gpt-4o-mini: compacting it and asking again.");
    expect(run.stderr).toContain("Context compacted.");
    const [summary, retry] = server.requests.slice(6);
    expect(summary!.body.messages[0]!.content).toMatch(/^You compress conversations\./);
    expect(retry!.body.messages[1]!.content).toContain("Summary of the rounds.");
    expect(retry!.body.messages.length).toBeLessThan(server.requests[5]!.body.messages.length);
  });
});

describe("mentions in a non-interactive prompt", () => {
  test("@file and @image attach what exists in the working directory; an e-mail address stays text", async ({
    ask,
    home,
  }) => {
    const project = join(home, "project");
    mkdirSync(project);
    writeFileSync(join(project, "notes.txt"), "The launch is on Tuesday.\n");
    writeFileSync(join(project, "shot.png"), fixtureImage("tiny.png"));
    const prompt = "what does @notes.txt say, what is in @shot.png, and write to me@example.org";
    const { run, server } = await ask([{ text: "Tuesday." }], prompt, {}, ["--working-dir", project]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("Attached to the message: notes.txt (26 B), shot.png (PNG, 2×3, 97 B).");
    const parts = server.requests[0]!.body.messages.at(-1)!.content as unknown as Array<{
      type: string;
      text?: string;
    }>;
    expect(parts.map((part) => part.type)).toEqual(["text", "image_url"]);
    expect(parts[0]!.text).toContain('<file path="notes.txt">\nThe launch is on Tuesday.\n\n</file>');
    expect(parts[0]!.text).toContain("write to me@example.org");
    expect(run.stderr).not.toContain("example.org is not attached");
  });

  test("a mention outside the working directory is refused with a note on stderr, and the prompt still goes", async ({
    ask,
    home,
  }) => {
    const project = join(home, "project");
    mkdirSync(project);
    writeFileSync(join(home, "outside.txt"), "private");
    const { run, server } = await ask([{ text: "Fine." }], "read @../outside.txt", {}, ["--working-dir", project]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("@../outside.txt is not attached: only files inside the working directory");
    expect(JSON.stringify(server.requests[0]!.body.messages)).not.toContain("private");
  });
});
