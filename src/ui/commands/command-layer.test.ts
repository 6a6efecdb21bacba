import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "../../../tests/support/command-layer-fixture.js";
import { describe, expect } from "../../../tests/support/fixtures.js";
import { userWords } from "../../../tests/support/llm-server.js";
import { localDay } from "../../state/usage.js";
import type { CommandLayer } from "./command-layer.js";
import { LISTED_COMMANDS } from "./command-table.js";

describe("messages", () => {
  test("submits anything that is not a command to the session and reports the answer", async ({ openLayer }) => {
    const { layer, host, server } = await openLayer([{ text: "Hello there." }]);
    const result = await layer.handle("hi Marvin");
    expect(result.type).toBe("submitted");
    const answer = result.type === "submitted" ? await result.done : undefined;
    expect(answer).toMatchObject({ reason: "done", text: "Hello there." });
    expect(host.submitted).toEqual(["session: hi Marvin"]);
    expect(userWords(server.requests[0]!.body.messages.at(-1)!.content)).toBe("hi Marvin");
  });

  test("quit and exit end the session without reaching the model", async ({ openLayer }) => {
    const { layer, server } = await openLayer();
    expect(await layer.handle("quit")).toEqual({ type: "exit" });
    expect(await layer.handle("Exit")).toEqual({ type: "exit" });
    expect(server.requests).toHaveLength(0);
  });

  test("/help lists every command and its older forms, without reaching the model", async ({ openLayer }) => {
    const { layer, host, server } = await openLayer();
    await layer.handle("/help");
    const help = host.lastSystem;
    for (const command of LISTED_COMMANDS) expect(help).toContain(`/${command.name}`);
    const forms = ["!shell", "!code", "!COMMAND", "!pro", "!model", "/cap [daily] [USD|off]", "quit", "@PATH"];
    for (const form of [...forms, "/v [SECONDS]", "!voice", "!blender"]) expect(help).toContain(form);
    await layer.handle("help");
    await layer.handle("!help");
    expect(host.systemMessages).toEqual([help, help, help]);
    expect(server.requests).toHaveLength(0);
  });

  test("an unknown /command is refused with the nearest names and never reaches the model", async ({ openLayer }) => {
    const { layer, host, server } = await openLayer();
    expect(await layer.handle("/mdoel groq")).toEqual({ type: "handled" });
    expect(host.lastSystem).toBe(
      "/mdoel is not a command. Did you mean /model? /help lists them; nothing was sent to the model.",
    );
    await layer.handle("/etc/hosts looks odd");
    expect(host.lastSystem).toBe("/etc/hosts is not a command. /help lists them; nothing was sent to the model.");
    expect(server.requests).toHaveLength(0);
  });
});

describe("shell commands", () => {
  test("!COMMAND runs in the start directory and shows its output", async ({ openLayer }) => {
    const { layer, host, cwd } = await openLayer();
    expect(await layer.handle("!echo hi && pwd")).toEqual({ type: "handled" });
    expect(host.shellText).toBe(`hi\n${cwd}\n`);
  });

  test("runs in the session's working directory once there is one, and reports a failing exit code", async ({
    openLayer,
  }) => {
    const { layer, host, harness, cwd } = await openLayer();
    const project = join(cwd, "project");
    mkdirSync(project);
    harness.session.setWorkingDir(project);
    await layer.handle("!pwd; printf 'no newline' >&2; exit 3");
    expect(host.shellText).toBe(`${project}\nno newline\n`);
    expect(host.lastSystem).toBe("Exit code 3.");
  });

  test("shell mode sends every line to the shell until toggled off", async ({ openLayer }) => {
    const { layer, host, server } = await openLayer();
    expect(layer.prompt).toBe("> ");
    await layer.handle("!sh");
    expect(layer.shellMode).toBe(true);
    expect(layer.prompt).toBe("$ ");
    expect(host.lastSystem).toContain("Shell mode ON");
    await layer.handle("echo inside shell mode");
    await layer.handle("usage");
    expect(host.shellText).toContain("inside shell mode\n");
    expect(host.lastSystem).toMatch(/Exit code 127/); // `usage` is not a program here
    await layer.handle("!shell");
    expect(layer.prompt).toBe("> ");
    expect(host.stateChanges).toBe(2);
    expect(server.requests).toHaveLength(0);
  });

  test("Ctrl+C (interrupt) stops a running command", async ({ openLayer }) => {
    const { layer, host } = await openLayer();
    const started = Date.now();
    const running = layer.handle("!echo started; sleep 30");
    await waitFor(() => host.shellText.includes("started"));
    expect(layer.commandRunning).toBe(true);
    expect(layer.interrupt()).toBe(true);
    await running;
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(host.lastSystem).toBe("Command interrupted.");
    expect(layer.commandRunning).toBe(false);
    expect(layer.interrupt()).toBe(false);
  });

  test("a bare ! explains itself", async ({ openLayer }) => {
    const { layer, host } = await openLayer();
    await layer.handle("!");
    expect(host.lastSystem).toContain("Type a command after '!'");
  });
});

describe("modes and reports", () => {
  test("!code toggles coding mode, using the start directory when no working directory is set", async ({
    openLayer,
  }) => {
    const { layer, host, harness, cwd } = await openLayer();
    expect(harness.session.codingMode).toBe(false);
    await layer.handle("!code");
    expect(harness.session.codingMode).toBe(true);
    expect(harness.session.workingDir).toBe(realpathSync(cwd));
    expect(host.lastSystem).toBe(`Coding mode ON: working directory ${cwd}. Marvin asks before running any command.`);
    await layer.handle("!code");
    expect(harness.session.codingMode).toBe(false);
    expect(host.lastSystem).toBe("Coding mode OFF.");
  });

  test("profiles lists every profile and marks the active one", async ({ openLayer }) => {
    const { layer, host, harness } = await openLayer();
    await harness.session.profiles.ensure("work");
    await harness.session.profiles.ensure("alice");
    await layer.handle("profiles");
    expect(host.lastSystem).toContain("Profiles:\n    alice\n  * main (active)\n    work\n");
  });

  test("saved lists the active profile's saved places", async ({ openLayer }) => {
    const { layer, host, harness } = await openLayer();
    await layer.handle("saved");
    expect(host.lastSystem).toContain("No saved places yet");
    const place = {
      label: "home",
      name: "Flat",
      address: "1 Main St, Springfield",
      phone: "",
      website: "",
      lat: 1,
      lng: 2,
      notes: "",
    };
    writeFileSync(harness.session.profiles.paths("main").savedPlaces, JSON.stringify([place]));
    await layer.handle("saved");
    expect(host.lastSystem).toBe("Saved places (1):\n  home — Flat, 1 Main St, Springfield");
  });

  test("usage shows this session and the lifetime totals of usage.json plus this session", async ({ openLayer }) => {
    const { layer, host, home } = await openLayer([{ text: "ok", usage: { prompt: 1_000_000, completion: 0 } }]);
    mkdirSync(join(home, ".config", "local-finder"), { recursive: true });
    const lifetime = {
      total_cost: 2,
      sessions: 3,
      llm_turns: 7,
      provider_cost: { groq: 2 },
      model_turns: {},
      model_cost: {},
      input_tokens: {},
      output_tokens: {},
      tool_calls: {},
      last_updated: "",
    };
    writeFileSync(join(home, ".config", "local-finder", "usage.json"), JSON.stringify(lifetime));
    const result = await layer.handle("hello");
    if (result.type === "submitted") await result.done;
    await layer.handle("usage");
    // gpt-4o-mini input: $0.15 per million tokens
    expect(host.lastSystem).toContain(
      "This session: $0.1500 · 1 LLM call · 1,000,000 tokens in / 0 out · 0 tool calls",
    );
    expect(host.lastSystem).toContain("gpt-4o-mini: 1 call, $0.1500");
    expect(host.lastSystem).toContain("Lifetime (4 sessions, this one included): $2.1500 · 8 LLM calls");
    expect(host.lastSystem).toContain("by provider: groq $2.0000, openai-compat $0.1500");
  });

  test("usage says 'price unknown' for a model Marvin has no price for, not $0.0000", async ({ openLayer }) => {
    const { layer, host } = await openLayer([{ text: "ok", usage: { prompt: 1000, completion: 10 } }], {
      OPENAI_COMPAT_MODEL: "house-model-7b",
    });
    const result = await layer.handle("hello");
    if (result.type === "submitted") await result.done;
    await layer.handle("usage");
    expect(host.lastSystem).toContain("This session: price unknown · 1 LLM call · 1,000 tokens in / 10 out");
    expect(host.lastSystem).toContain("house-model-7b: 1 call, price unknown");
  });

  test("usage says when usage.json was unusable and where it was moved", async ({ openLayer }) => {
    const { layer, host, home } = await openLayer();
    mkdirSync(join(home, ".config", "local-finder"), { recursive: true });
    writeFileSync(join(home, ".config", "local-finder", "usage.json"), JSON.stringify({ total_cost: "lots" }));
    await layer.handle("usage");
    expect(host.lastSystem).toMatch(
      /^Could not read .*usage\.json: it does not have the expected structure\. It was moved to .*usage\.json\.corrupt-.*\n/,
    );
    expect(host.lastSystem).toContain("Lifetime (1 session, this one included): $0.0000");
  });
});

describe("thinking", () => {
  test("shows the level, sets it for the next message, and refuses a level it does not know", async ({ openLayer }) => {
    const { layer, host, server } = await openLayer([{ text: "ok" }]);
    await layer.handle("thinking");
    expect(host.lastSystem).toBe(
      'Thinking: the provider\'s default. Change it with "/thinking off|low|medium|high" ("default" leaves it to the ' +
        "model).",
    );
    await layer.handle("!thinking extreme");
    expect(host.lastSystem).toBe('"extreme" is not a thinking level. Usage: thinking [off|low|medium|high|default].');
    await layer.handle("thinking HIGH");
    expect(host.lastSystem).toBe("Thinking: high, from the next message on.");
    const result = await layer.handle("hello");
    if (result.type === "submitted") await result.done;
    expect((server.requests[0]!.body as { reasoning_effort?: string }).reasoning_effort).toBe("high");
  });
});

describe("spending caps", () => {
  /** Sends `text` and waits for the answer; its reason. */
  async function send(layer: CommandLayer, text: string): Promise<string | undefined> {
    const result = await layer.handle(text);
    return result.type === "submitted" ? (await result.done).reason : undefined;
  }

  test("cap shows what this conversation and today cost against their caps", async ({ openLayer }) => {
    const { layer, host, home } = await openLayer([{ text: "ok", usage: { prompt: 1_000_000, completion: 0 } }], {
      MARVIN_MAX_COST: "0.50",
    });
    mkdirSync(join(home, ".config", "local-finder"), { recursive: true });
    const usage = { daily_cost: { [localDay(new Date())]: 1 } };
    writeFileSync(join(home, ".config", "local-finder", "usage.json"), JSON.stringify(usage));
    await send(layer, "hello");
    await layer.handle("cap");
    expect(host.lastSystem).toBe(
      [
        "Spending caps:",
        "  this conversation: $0.15 spent, $0.50 (MARVIN_MAX_COST)",
        "  today: $1.15 spent, no cap",
        'Change them with "cap USD" or "cap daily USD" ("off" removes one).',
      ].join("\n"),
    );
  });

  test("cap USD raises this conversation's cap after a stop, and the next message goes through", async ({
    openLayer,
  }) => {
    const { layer, host, server } = await openLayer(
      [{ text: "Expensive.", usage: { prompt: 1_000_000, completion: 0 } }, { text: "Cheap." }],
      { MARVIN_MAX_COST: "0.10" },
    );
    expect(await send(layer, "first")).toBe("done");
    expect(await send(layer, "second")).toBe("error");
    expect(server.requests).toHaveLength(1);
    await layer.handle("!cap 0.30");
    expect(host.lastSystem).toBe("This conversation's spending cap is now $0.30; $0.15 spent so far.");
    expect(await send(layer, "go on")).toBe("done");
    expect(server.requests).toHaveLength(2);
    await layer.handle("cap off");
    // The second answer came without usage: its tokens were estimated.
    expect(host.lastSystem).toMatch(/^This conversation has no spending cap now \(\$0\.15\d\d spent so far\)\.$/);
  });

  test("cap daily USD sets today's cap for this session; a bad amount gets the usage", async ({ openLayer }) => {
    const { layer, host, server } = await openLayer([{ text: "ok", usage: { prompt: 1_000_000, completion: 0 } }]);
    await layer.handle("cap daily 0.15");
    expect(host.lastSystem).toBe("The daily spending cap is $0.15 for the rest of this session; $0.00 spent today.");
    expect(await send(layer, "first")).toBe("done");
    expect(await send(layer, "second")).toBe("error");
    expect(server.requests).toHaveLength(1);
    await layer.handle("cap daily 1.2.3");
    expect(host.lastSystem).toBe(
      '"1.2.3" is not an amount in USD above 0. Usage: cap [USD|off] (this conversation\'s spending cap), cap daily ' +
        "[USD|off] (today's, for this session).",
    );
  });
});

describe("input history", () => {
  test("appends every non-empty line to the active profile's history file", async ({ openLayer }) => {
    const { layer, harness } = await openLayer();
    await layer.handle("!echo one");
    await layer.handle("   ");
    await layer.handle("!voice");
    await layer.close();
    expect(readFileSync(harness.session.profiles.paths("main").inputHistory, "utf8")).toBe("!echo one\n!voice\n");
    expect(await layer.loadInputHistoryLines()).toEqual(["!echo one", "!voice"]);
  });

  test("recalls earlier lines without the escape sequences a piped line may have carried", async ({ openLayer }) => {
    const { layer } = await openLayer();
    await layer.handle("!echo \x1b]0;pwned\x07title\x1b[2J");
    expect(await layer.loadInputHistoryLines()).toEqual(["!echo title"]);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("permissions", () => {
  test("!permissions shows the approval mode and changes it for the conversation", async ({ openLayer }) => {
    const { layer, host, harness } = await openLayer();
    await layer.handle("!permissions");
    await layer.handle("!permissions auto");
    await layer.handle("!permissions sometimes");
    expect(host.systemMessages).toEqual([
      'Approval mode: never — nothing asks; what the sandbox stops stays stopped. Change it with "/permissions ' +
        'ask|auto|never".',
      "Approval mode for this conversation: auto — commands run in the sandbox without asking; one the sandbox " +
        "stops asks to run outside it.",
      '"sometimes" is not an approval mode: use ask, auto or never.',
    ]);
    expect(harness.session.services.approvals.mode).toBe("auto");
  });
});
