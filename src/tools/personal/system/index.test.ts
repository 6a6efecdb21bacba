import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test as base, describe, expect } from "../../../../tests/support/fixtures.js";
import type { ToolHarness } from "../../../../tests/support/tool-harness.js";

/** `open(nonInteractive)`: a session with every tool over `home`. */
const test = base.extend<{ open: (nonInteractive?: boolean) => Promise<ToolHarness> }>({
  open: async ({ harnesses, home }, use) => use((nonInteractive = false) => harnesses.open({ home, nonInteractive })),
});

describe("exit_app", () => {
  test("asks an interactive session to exit after the answer, with the default goodbye", async ({ open }) => {
    const { call, session } = await open();
    expect(await call("exit_app", {})).toEqual({ isError: false, result: "Goodbye!" });
    expect(session.exitRequested).toBe("Goodbye!");
    expect((await call("exit_app", { message: "See you tomorrow." })).result).toBe("See you tomorrow.");
    expect(session.exitRequested).toBe("See you tomorrow.");
  });

  test("tells a non-interactive run that it ends with the answer", async ({ open }) => {
    const { call } = await open(true);
    expect((await call("exit_app", {})).result).toBe("Goodbye! (this run ends when the answer is complete)");
  });
});

describe("system_info", () => {
  test("describes OS, CPU, memory, disk, uptime, Node.js and battery", async ({ open, home }) => {
    const { call } = await open();
    const outcome = await call("system_info", {});
    expect(outcome.isError).toBe(false);
    const lines = outcome.result.split("\n");
    for (const prefix of [
      "OS: ",
      "Host: ",
      "CPU: ",
      "Memory: ",
      "Disk (/): ",
      `Disk (${home}): `,
      "Uptime: ",
      "Battery: ",
    ]) {
      expect(lines.some((line) => line.startsWith(prefix))).toBe(true);
    }
    expect(lines).toContain(`Node.js: ${process.version}`);
    expect(outcome.result).toMatch(/Memory: \d+\.\d GiB used of \d+\.\d GiB/);
  });
});

describe("get_usage", () => {
  test("reports this session's calls, tokens and cost per model, and tool calls", async ({ open }) => {
    const { call, session } = await open();
    session.usage.recordLLMCall({
      provider: "openai",
      model: "gpt-5.1",
      inputTokens: 1000,
      outputTokens: 200,
      cachedTokens: 0,
      cost: 0.00325,
    });
    session.usage.recordLLMCall({
      provider: "openai",
      model: "gpt-5.1",
      inputTokens: 2000,
      outputTokens: 100,
      cachedTokens: 0,
      cost: 0.0035,
    });
    session.usage.recordToolCall("web_search");
    expect((await call("get_usage", {})).result).toBe(
      "This session: $0.006750 over 2 LLM call(s)\n  gpt-5.1: 2 call(s), 3000 in / 300 out tokens, $0.006750\n  " +
        "tools: web_search ×1",
    );
  });

  test("adds lifetime totals from usage.json when include_lifetime is set", async ({ open, home }) => {
    const root = join(home, ".config", "local-finder");
    await mkdir(root, { recursive: true });
    await writeFile(
      join(root, "usage.json"),
      JSON.stringify({
        total_cost: 1.25,
        sessions: 9,
        llm_turns: 40,
        model_turns: { "gpt-5.1": 40 },
        model_cost: { "gpt-5.1": 1.25 },
        input_tokens: { "gpt-5.1": 900000 },
        output_tokens: { "gpt-5.1": 20000 },
      }),
    );
    const { call, session } = await open();
    session.usage.recordLLMCall({
      provider: "openai",
      model: "gpt-5.1",
      inputTokens: 1000,
      outputTokens: 200,
      cachedTokens: 0,
      cost: 0.25,
    });
    const content = (await call("get_usage", { include_lifetime: true })).result;
    expect(content).toContain("This session: $0.2500 over 1 LLM call(s)");
    expect(content).toContain(
      "\n\nLifetime (10 sessions): $1.5000 over 41 LLM call(s)\n  gpt-5.1: 41 call(s), 901000 in / 20200 out " +
        "tokens, $1.5000",
    );
    expect((await call("get_usage", { include_lifetime: "false" })).result).not.toContain("Lifetime");
  });

  test("tells the model when usage.json was unusable, and where it was moved", async ({ open, home }) => {
    const root = join(home, ".config", "local-finder");
    await mkdir(root, { recursive: true });
    await writeFile(join(root, "usage.json"), JSON.stringify({ sessions: 2, tool_calls: ["read_file"] }));
    const { call } = await open();
    const content = (await call("get_usage", { include_lifetime: true })).result;
    const aside = (await readdir(root)).find((name) => name.startsWith("usage.json.corrupt-"));
    expect(aside).toBeDefined();
    expect(content).toContain(
      `Could not read ${join(root, "usage.json")}: it does not have the expected structure. It was moved to ` +
        `${join(root, aside!)}; starting from an empty one.`,
    );
    expect(content).toContain("Lifetime (1 sessions): $0.0000 over 0 LLM call(s)");
  });
});
