import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "../../../tests/support/fixtures.js";
import { mistralAnswer } from "../../../tests/support/mistral-wire.js";
import { collect } from "../../../tests/support/provider-stream.js";
import type { Env } from "../../shared/env.js";
import { resolveProviderConfig } from "../config.js";
import { createProvider } from "../create.js";
import type { Message } from "../types.js";

const TIMER_TOOL = {
  type: "function" as const,
  function: { name: "timer_start", description: "Starts a timer.", parameters: { type: "object", properties: {} } },
};

async function mistralAt(url: string, home: string, env: Env = {}) {
  const settings = { MISTRAL_BASE_URL: url, MISTRAL_API_KEY: "mistral-test-key", ...env };
  const config = resolveProviderConfig("mistral", { env: settings, home, codingMode: false, nonInteractive: false });
  return createProvider(config, settings);
}

/** A conversation another provider began: OpenAI's and Anthropic's tool-call ids, and one of Mistral's own. */
const EARLIER: Message[] = [
  { role: "user", content: "start two timers, then a third" },
  {
    role: "assistant",
    content: null,
    tool_calls: [
      { id: "call_1EYWDzueHEp8OsB8jJSEp7WB", type: "function", function: { name: "timer_start", arguments: "{}" } },
      { id: "toolu_01A09q90qw90lq917835lq9", type: "function", function: { name: "timer_start", arguments: "{}" } },
    ],
  },
  { role: "tool", tool_call_id: "call_1EYWDzueHEp8OsB8jJSEp7WB", content: "started one" },
  { role: "tool", tool_call_id: "toolu_01A09q90qw90lq917835lq9", content: "started two" },
  {
    role: "assistant",
    content: null,
    tool_calls: [{ id: "D681PevKs", type: "function", function: { name: "timer_start", arguments: "{}" } }],
  },
  { role: "tool", tool_call_id: "D681PevKs", content: "started three" },
];

describe("mistral over its chat completions", () => {
  test("streams a tool call with Mistral's id, usage from the chunk that finishes, sending no stream_options", async ({
    llm,
    home,
  }) => {
    const server = await llm([
      mistralAnswer({
        text: "Starting it.",
        toolCalls: [{ id: "Xy7Pq2Lm9", name: "timer_start", arguments: { name: "tea" } }],
        usage: { prompt: 812, completion: 31 },
      }),
    ]);
    const provider = await mistralAt(server.url, home);
    const record = await collect(
      provider.stream({ messages: [{ role: "user", content: "tea" }], tools: [TIMER_TOOL] }),
    );
    expect(record.error).toBeUndefined();
    expect(record.text.join("")).toBe("Starting it.");
    expect(record.response).toMatchObject({
      model: "mistral-large-latest",
      finishReason: "tool_calls",
      usage: { promptTokens: 812, completionTokens: 31 },
      toolCalls: [
        { id: "Xy7Pq2Lm9", type: "function", function: { name: "timer_start", arguments: '{"name":"tea"}' } },
      ],
    });
    const [sent] = server.requests;
    expect(sent!.path).toBe("/v1/chat/completions");
    expect(sent!.headers.authorization).toBe("Bearer mistral-test-key");
    expect(sent!.body.stream_options).toBeUndefined();
  });

  test("sends other providers' tool-call ids as nine letters and digits, a call and its result alike", async ({
    llm,
    home,
  }) => {
    const server = await llm([mistralAnswer({ text: "All three run." }), mistralAnswer({ text: "Still running." })]);
    const provider = await mistralAt(server.url, home);
    const first = await collect(provider.stream({ messages: EARLIER, tools: [TIMER_TOOL], thinking: "high" }));
    expect(first.error).toBeUndefined();
    const later: Message[] = [
      ...EARLIER,
      { role: "assistant", content: "All three run." },
      { role: "user", content: "?" },
    ];
    expect((await collect(provider.stream({ messages: later, tools: [TIMER_TOOL] }))).error).toBeUndefined();

    const idsOf = (index: number) => {
      const messages = server.requests[index]!.body.messages;
      const calls = messages.flatMap((message) => message.tool_calls ?? []).map((call) => call.id);
      const results = messages.flatMap((message) => (message.tool_call_id ? [message.tool_call_id] : []));
      return { calls, results };
    };
    const { calls, results } = idsOf(0);
    expect(calls).toHaveLength(3);
    for (const id of calls) expect(id).toMatch(/^[A-Za-z0-9]{9}$/);
    expect(new Set(calls).size).toBe(3);
    expect(calls[2]).toBe("D681PevKs"); // Mistral's own id goes back as it came
    expect(results).toEqual(calls);
    expect(idsOf(1)).toEqual({ calls, results }); // the next request (or a resumed session) sends the same ids
    // Only the fields Mistral takes: no reasoning_effort for a thinking level it has no parameter for.
    expect(server.requests[0]!.body).not.toHaveProperty("reasoning_effort");
  });

  test("reads a Magistral answer streamed as thinking and text parts: reasoning apart from the answer", async ({
    llm,
    home,
  }) => {
    const server = await llm([mistralAnswer({ thinking: "Two and two make four.", text: "It is 4." })]);
    const provider = await mistralAt(server.url, home, { MISTRAL_MODEL: "magistral-medium-latest" });
    const record = await collect(provider.stream({ messages: [{ role: "user", content: "2+2?" }], tools: [] }));
    expect(record.error).toBeUndefined();
    expect(record.reasoning.join("")).toBe("Two and two make four.");
    expect(record.text.join("")).toBe("It is 4.");
    expect(record.response).toMatchObject({ content: "It is 4.", reasoning: "Two and two make four." });
  });

  test("reads MISTRAL_MODEL, and the key from ~/.ssh/MISTRAL_API_KEY when the variable is unset", async ({ home }) => {
    await mkdir(join(home, ".ssh"));
    await writeFile(join(home, ".ssh", "MISTRAL_API_KEY"), "from-the-file\n");
    const env = { MISTRAL_MODEL: "devstral-medium-latest" };
    const config = resolveProviderConfig("mistral", { env, home, codingMode: false, nonInteractive: false });
    expect(config).toMatchObject({
      model: "devstral-medium-latest",
      baseUrl: "https://api.mistral.ai/v1",
      apiKey: "from-the-file",
      keyHint: "MISTRAL_API_KEY (or ~/.ssh/MISTRAL_API_KEY)",
    });
  });
});
