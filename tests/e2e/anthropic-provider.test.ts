import { type AnthropicReply, type AnthropicServer, startAnthropicServer } from "../support/anthropic-server.js";
import { test as base, describe, expect } from "../support/fixtures.js";
import { costOf, type MarvinRun, runMarvin } from "../support/run-marvin.js";

type Ask = (prompt: string, args?: string[]) => Promise<MarvinRun>;

/** `claude(script)`: a scripted Messages API, and `ask` running the built marvin against it with LLM_PROVIDER=anthropic. */
const test = base.extend<{ claude: (script: AnthropicReply[]) => Promise<{ server: AnthropicServer; ask: Ask }> }>({
  claude: async ({ home }, use) => {
    const servers: AnthropicServer[] = [];
    await use(async (script) => {
      const server = await startAnthropicServer(script);
      servers.push(server);
      const env = {
        PATH: process.env.PATH,
        HOME: home,
        LLM_PROVIDER: "anthropic",
        ANTHROPIC_BASE_URL: server.url,
        ANTHROPIC_API_KEY: "sk-ant-e2e",
      };
      const ask: Ask = (prompt, args = []) =>
        runMarvin(["--non-interactive", "--prompt", prompt, ...args], { env, cwd: home });
      return { server, ask };
    });
    await Promise.all(servers.map((server) => server.close()));
  },
});

const THOUGHT = "A tea timer: timer_start with two minutes.";
const SIGNATURE = `ErUBCkYIBxgCIkB${"s".repeat(200)}==`;
const cached = { cache_control: { type: "ephemeral" } };

describe("marvin with LLM_PROVIDER=anthropic", () => {
  test("holds a tool round and a second user message, sending back thinking signatures and cache breakpoints", async ({
    claude,
  }) => {
    const { server, ask } = await claude([
      {
        message: {
          thinking: { text: THOUGHT, signature: SIGNATURE },
          text: "Starting it.",
          toolCalls: [{ id: "toolu_01Tea", name: "timer_start", input: { name: "tea", duration_seconds: 120 } }],
          usage: { input: 2_000, output: 50, cacheWrite: 8_000 },
        },
      },
      {
        message: {
          text: "Your tea timer is running.",
          usage: { input: 300, output: 20, cacheRead: 8_000, cacheWrite: 1_800 },
        },
      },
      { message: { text: "It is called tea.", usage: { input: 40, output: 10, cacheRead: 9_800 } } },
    ]);

    const first = await ask("start a tea timer", ["--session", "tea"]);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe("Starting it.\n  🔧 timer_start\nYour tea timer is running.\n");
    expect(first.stdout + first.stderr).not.toContain(THOUGHT); // thinking is never part of the text output

    const [opening, afterTools] = server.requests;
    expect(opening!.headers).toMatchObject({ "x-api-key": "sk-ant-e2e", "anthropic-version": "2023-06-01" });
    expect(opening!.body).toMatchObject({ model: "claude-sonnet-5-5", stream: true });
    expect(opening!.body.system!.at(-1)).toMatchObject(cached);
    expect(opening!.body.tools!.at(-1)).toMatchObject(cached);
    expect(opening!.body.tools!.slice(0, -1).some((tool) => "cache_control" in tool)).toBe(false);

    const [, assistant, results] = afterTools!.body.messages;
    expect(assistant).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking: THOUGHT, signature: SIGNATURE },
        { type: "text", text: "Starting it." },
        { type: "tool_use", id: "toolu_01Tea", name: "timer_start", input: { name: "tea", duration_seconds: 120 } },
      ],
    });
    expect(results!.role).toBe("user");
    expect(results!.content).toEqual([
      {
        type: "tool_result",
        tool_use_id: "toolu_01Tea",
        content: expect.stringContaining("Countdown 'tea' started"),
        ...cached,
      },
    ]);

    // Sonnet 5.5: fresh input $2, cache writes $2.50, cache reads $0.10, output $10 per million tokens.
    const firstCost = (2_000 * 2 + 8_000 * 2.5 + 50 * 10 + 300 * 2 + 8_000 * 0.1 + 1_800 * 2.5 + 20 * 10) / 1e6;
    const cost = costOf(first);
    expect(cost.llm_turns).toBe(2);
    expect(cost.session_cost).toBeCloseTo(firstCost, 9);
    expect(cost.cached_tokens).toEqual({ "claude-sonnet-5-5": 8_000 });

    const second = await ask("what was the timer called?", ["--session", "tea"]);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe("It is called tea.\n");
    const turns = server.requests[2]!.body.messages;
    expect(turns.map((turn) => turn.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    // The thinking block came back from the session file, signature intact.
    expect(turns[1]!.content[0]).toEqual({ type: "thinking", thinking: THOUGHT, signature: SIGNATURE });
    expect(turns.at(-1)!.content).toEqual([
      { type: "text", text: expect.stringMatching(/what was the timer called\?$/), ...cached },
    ]);
    // The tool round's results are the turn before: its breakpoint reads what the last request wrote.
    expect(turns[2]!.content.at(-1)).toMatchObject({ type: "tool_result", ...cached });
    expect(JSON.stringify(server.requests[2]!.body).match(/"cache_control"/g)).toHaveLength(4);
  });

  test("says what is wrong when the key is refused, naming where the key comes from", async ({ claude }) => {
    const refused = { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } };
    const { ask } = await claude([{ status: 401, body: refused }]);
    const run = await ask("hello");
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "anthropic refused the API key (HTTP 401): invalid x-api-key. Check ANTHROPIC_API_KEY (or " +
        "~/.ssh/ANTHROPIC_API_KEY).",
    );
  });
});
