import { test as base, describe, expect } from "../support/fixtures.js";
import { type ResponsesReply, type ResponsesServer, startResponsesServer } from "../support/responses-server.js";
import { costOf, type MarvinRun, runMarvin } from "../support/run-marvin.js";

type Ask = (prompt: string, args?: string[]) => Promise<MarvinRun>;

/** `responses(script, env)`: a scripted Responses API, and `ask` running the built marvin against it as openai. */
const test = base.extend<{
  responses: (script: ResponsesReply[], env?: Record<string, string>) => Promise<{ server: ResponsesServer; ask: Ask }>;
}>({
  responses: async ({ home }, use) => {
    const servers: ResponsesServer[] = [];
    await use(async (script, extraEnv = {}) => {
      const server = await startResponsesServer(script);
      servers.push(server);
      const env = {
        PATH: process.env.PATH,
        HOME: home,
        LLM_PROVIDER: "openai",
        OPENAI_BASE_URL: server.url,
        OPENAI_API_KEY: "sk-e2e",
        ...extraEnv,
      };
      const ask: Ask = (prompt, args = []) =>
        runMarvin(["--non-interactive", "--prompt", prompt, ...args], { env, cwd: home });
      return { server, ask };
    });
    await Promise.all(servers.map((server) => server.close()));
  },
});

const SUMMARY = "**Starting a timer**\n\nThe user wants tea: timer_start for two minutes.";
const ENCRYPTED = `gAAAAABoEncrypted${"e".repeat(160)}==`;
const reasoningItem = {
  type: "reasoning",
  summary: [{ type: "summary_text", text: SUMMARY }],
  encrypted_content: ENCRYPTED,
};

describe("marvin with LLM_PROVIDER=openai (the Responses API)", () => {
  test("holds a tool round and a second user message, sending back the encrypted reasoning and the cache key", async ({
    responses,
  }) => {
    const { server, ask } = await responses([
      {
        response: {
          reasoning: { summary: [SUMMARY], encrypted: ENCRYPTED },
          text: "Starting it.",
          toolCalls: [{ callId: "call_Tea", name: "timer_start", arguments: { name: "tea", duration_seconds: 120 } }],
          usage: { input: 3_000, output: 60 },
        },
      },
      { response: { text: "Your tea timer is running.", usage: { input: 3_200, output: 20, cached: 2_944 } } },
      { response: { text: "It is called tea.", usage: { input: 3_300, output: 10, cached: 3_200 } } },
    ]);

    const first = await ask("start a tea timer", ["--session", "tea"]);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe("Starting it.\n  🔧 timer_start\nYour tea timer is running.\n");
    expect(first.stdout + first.stderr).not.toContain("The user wants tea"); // reasoning is never text output

    const [opening, afterTools] = server.requests;
    expect(opening!.headers.authorization).toBe("Bearer sk-e2e");
    expect(opening!.body).toMatchObject({
      model: "gpt-5.1",
      stream: true,
      store: false,
      include: ["reasoning.encrypted_content"],
      reasoning: { summary: "auto" },
      prompt_cache_key: "tea",
    });
    expect(opening!.body.instructions).toMatch(/Marvin/);
    expect(afterTools!.body.prompt_cache_key).toBe("tea");
    expect(afterTools!.body.input.slice(1)).toEqual([
      reasoningItem,
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "Starting it." }] },
      {
        type: "function_call",
        call_id: "call_Tea",
        name: "timer_start",
        arguments: '{"name":"tea","duration_seconds":120}',
      },
      { type: "function_call_output", call_id: "call_Tea", output: expect.stringContaining("Countdown 'tea' started") },
    ]);
    const cost = costOf(first);
    expect(cost.llm_turns).toBe(2);
    expect(cost.cached_tokens).toEqual({ "gpt-5.1": 2_944 });

    const second = await ask("what was the timer called?", ["--session", "tea"]);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe("It is called tea.\n");
    const again = server.requests[2]!.body;
    expect(again.prompt_cache_key).toBe("tea");
    // The reasoning came back from the session file, encrypted content intact.
    expect(again.input).toContainEqual(reasoningItem);
    expect(again.input.at(-1)).toEqual({
      role: "user",
      content: expect.stringMatching(/what was the timer called\?$/),
    });
  });

  test("carries the reasoning summary in --output jsonl, as reasoning events before the answer", async ({
    responses,
  }) => {
    const { ask } = await responses([{ response: { reasoning: { summary: [SUMMARY] }, text: "Hello." } }]);
    const run = await ask("hi", ["--output", "jsonl"]);
    expect(run.code).toBe(0);
    const events = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; text?: string });
    const reasoning = events.filter((event) => event.type === "reasoning_delta");
    expect(reasoning.map((event) => event.text).join("")).toBe(SUMMARY);
    const kinds = events.map((event) => event.type);
    expect(kinds.lastIndexOf("reasoning_delta")).toBeLessThan(kinds.indexOf("text_delta"));
  });

  test("MARVIN_THINKING sets the reasoning effort", async ({ responses }) => {
    const { server, ask } = await responses([{ response: { text: "ok" } }], { MARVIN_THINKING: "low" });
    expect((await ask("hi")).code).toBe(0);
    expect(server.requests[0]!.body.reasoning).toEqual({ effort: "low", summary: "auto" });
  });

  test("a conversation too long for the model moves to MARVIN_OVERFLOW_MODEL and is answered there", async ({
    responses,
  }) => {
    const tooLong = {
      error: {
        message: "Your input exceeds the context window of this model. Please adjust your input and try again.",
        type: "invalid_request_error",
        param: "input",
        code: "context_length_exceeded",
      },
    };
    const { server, ask } = await responses([{ status: 400, body: tooLong }, { response: { text: "Done." } }], {
      MARVIN_OVERFLOW_MODEL: "gpt-5.1-long",
    });
    const run = await ask("a very long request");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Done.\n");
    expect(run.stderr).toContain(
      "The conversation is too long for gpt-5.1: switching to gpt-5.1-long (MARVIN_OVERFLOW_MODEL).",
    );
    expect(server.requests.map((request) => request.body.model)).toEqual(["gpt-5.1", "gpt-5.1-long"]);
  });
});
