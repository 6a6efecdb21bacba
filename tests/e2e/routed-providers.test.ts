import { describe, expect, test } from "../support/fixtures.js";
import { mistralAnswer } from "../support/mistral-wire.js";
import { openRouterAnswer } from "../support/openrouter-wire.js";
import { costOf, runMarvin } from "../support/run-marvin.js";

const teaTimer = { name: "tea", duration_seconds: 120 };

describe("marvin with LLM_PROVIDER=mistral", () => {
  test("continues a conversation another provider began, its tool-call ids sent as Mistral takes them", async ({
    llm,
    home,
  }) => {
    const openaiCompat = await llm([
      { toolCalls: [{ id: "call_1EYWDzueHEp8OsB8jJSEp7WB", name: "timer_start", arguments: teaTimer }] },
      { text: "Your tea timer is running." },
    ]);
    const mistral = await llm([
      mistralAnswer({
        text: "Checking.",
        toolCalls: [{ id: "Ab3De6Gh9", name: "timer_start", arguments: { name: "eggs", duration_seconds: 60 } }],
        usage: { prompt: 3_000, completion: 40 },
      }),
      mistralAnswer({ text: "Both timers run.", usage: { prompt: 3_100, completion: 10 } }),
    ]);
    const base = { PATH: process.env.PATH, HOME: home };
    const ask = (prompt: string, env: Record<string, string>) =>
      runMarvin(["--non-interactive", "--prompt", prompt, "--session", "tea"], { env: { ...base, ...env }, cwd: home });

    const first = await ask("start a tea timer", {
      LLM_PROVIDER: "openai-compat",
      OPENAI_COMPAT_URL: openaiCompat.url,
    });
    expect(first.code).toBe(0);
    const second = await ask("and one for eggs", {
      LLM_PROVIDER: "mistral",
      MISTRAL_API_KEY: "mistral-e2e",
      MISTRAL_BASE_URL: mistral.url,
    });
    expect(second.stderr).not.toMatch(/must be a-z|Extra inputs/);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe("Checking.\n  🔧 timer_start\nBoth timers run.\n");

    const messages = mistral.requests[1]!.body.messages;
    const callIds = messages.flatMap((message) => message.tool_calls ?? []).map((call) => call.id);
    const resultIds = messages.flatMap((message) => (message.tool_call_id ? [message.tool_call_id] : []));
    expect(callIds).toHaveLength(2);
    expect(callIds[0]).toMatch(/^[A-Za-z0-9]{9}$/);
    expect(callIds[1]).toBe("Ab3De6Gh9");
    expect(resultIds).toEqual(callIds);
    // Mistral Large 3 at $0.50 / $1.50 per million tokens.
    expect(costOf(second).session_cost).toBeCloseTo((6_100 * 0.5 + 50 * 1.5) / 1e6, 9);
  });
});

describe("marvin with LLM_PROVIDER=openrouter", () => {
  test("holds a tool round with a short model name, counting the cost OpenRouter reports", async ({ llm, home }) => {
    const server = await llm([
      openRouterAnswer({
        text: "Starting it.",
        toolCalls: [{ id: "toolu_01Tea", name: "timer_start", arguments: teaTimer }],
        usage: { prompt: 2_000, completion: 30, cost: 0.0123 },
      }),
      openRouterAnswer({
        text: "Your tea timer is running.",
        usage: { prompt: 2_100, completion: 9, cached: 1_900, cost: 0.0021 },
      }),
    ]);
    const env = {
      PATH: process.env.PATH,
      HOME: home,
      LLM_PROVIDER: "openrouter",
      OPENROUTER_API_KEY: "sk-or-v1-e2e",
      OPENROUTER_BASE_URL: server.url,
      OPENROUTER_MODEL: "claude-sonnet-4-5",
    };
    const run = await runMarvin(["--non-interactive", "--prompt", "start a tea timer"], { env, cwd: home });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Starting it.\n  🔧 timer_start\nYour tea timer is running.\n");
    expect(server.requests.map((request) => request.body.model)).toEqual([
      "anthropic/claude-sonnet-4.5",
      "anthropic/claude-sonnet-4.5",
    ]);
    expect(server.requests[1]!.body.messages.at(-1)).toMatchObject({ role: "tool", tool_call_id: "toolu_01Tea" });
    const cost = costOf(run);
    expect(cost.session_cost).toBeCloseTo(0.0144, 9);
    expect(cost.cached_tokens).toEqual({ "anthropic/claude-sonnet-4.5": 1_900 });
  });
});
