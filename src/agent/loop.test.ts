import { readFile } from "node:fs/promises";
import { z } from "zod";
import { describe, expect, test } from "../../tests/support/fixtures.js";
import { type ChatScript, ScriptedChat } from "../../tests/support/scripted-chat.js";
import { registryOf } from "../../tests/support/test-session.js";
import { finalAnswer } from "../providers/final-answer.js";
import { countTextTokens } from "../providers/token-counter.js";
import type { Message } from "../providers/types.js";
import { writeConversationBackup } from "../session/conversation-backup.js";
import { createToolContext } from "../session/standalone-tool-context.js";
import { sleep } from "../shared/sleep.js";
import { type AnyToolDef, defineTool, type ToolProgress } from "../tools/kit/define-tool.js";
import { compactMessages } from "./compaction.js";
import { type BudgetThresholds, ContextBudget } from "./context-budget.js";
import type { AgentEvent } from "./events.js";
import { type LoopResult, runToolLoop } from "./loop.js";

const NO_LIMITS: BudgetThresholds = { warn: 1e9, compact: 1e9, hard: 1e9 };

interface LoopRun {
  result: LoopResult;
  events: AgentEvent[];
  messages: Message[];
  /** The scripted model, with the requests the loop made. */
  model: ScriptedChat;
}

interface LoopOptions {
  tools?: AnyToolDef[];
  thresholds?: BudgetThresholds;
  maxRounds?: number;
  messages?: Message[];
  controller?: AbortController;
  /** Called for every event as it is emitted (to abort at a precise point). */
  onEvent?: (event: AgentEvent) => void;
}

/** Runs the real loop against a scripted model, with real tools, budget and compaction over `home`. */
async function runLoop(home: string, script: ChatScript[], options: LoopOptions = {}): Promise<LoopRun> {
  const model = new ScriptedChat(script);
  const chat = model.stream;
  const events: AgentEvent[] = [];
  const emit = (event: AgentEvent) => {
    events.push(event);
    options.onEvent?.(event);
  };
  const registry = registryOf(options.tools ?? []);
  const context = (signal: AbortSignal, onProgress: (update: ToolProgress) => void) =>
    createToolContext({ home, signal, onProgress });
  const messages = options.messages ?? [
    { role: "system", content: "You are Marvin." },
    { role: "user", content: "hello" },
  ];
  const controller = options.controller ?? new AbortController();
  const result = await runToolLoop(
    { messages, maxRounds: options.maxRounds ?? 10, signal: controller.signal },
    {
      chat,
      providerName: model.name,
      model: model.model,
      tools: {
        schemas: () => registry.schemas(context(controller.signal, () => undefined).mode),
        execute: (call, args, signal, onProgress) =>
          registry.run(call.function.name, args, context(signal, onProgress)),
      },
      budget: new ContextBudget(options.thresholds ?? NO_LIMITS),
      compact: (current) =>
        compactMessages(current, {
          backUp: (all) => writeConversationBackup(home, all),
          summarize: async (transcript) =>
            (
              await finalAnswer(
                chat({
                  messages: [
                    { role: "system", content: "Summarise." },
                    { role: "user", content: transcript },
                  ],
                  tools: [],
                }),
              )
            ).content,
        }),
      emit,
    },
  );
  return { result, events, messages, model };
}

const lookup = defineTool({
  name: "lookup",
  effect: "read",
  description: "Looks a word up.",
  parameters: z.object({ word: z.string() }),
  handler: async ({ word }) => `definition of ${word}`,
});

function history(exchanges: number): Message[] {
  const messages: Message[] = [{ role: "system", content: "You are Marvin." }];
  for (let index = 1; index <= exchanges; index++) {
    messages.push({ role: "user", content: `earlier question ${index}: ${"detail ".repeat(30)}` });
    messages.push({ role: "assistant", content: `earlier answer ${index}: ${"detail ".repeat(30)}` });
  }
  messages.push({ role: "user", content: "the new question" });
  return messages;
}

describe("runToolLoop", () => {
  test("streams a text answer and reports events in order", async ({ home }) => {
    const { result, events, messages } = await runLoop(home, [
      { text: "Hello there, friend.", usage: { prompt: 100, completion: 5 } },
    ]);
    expect(result).toEqual({ reason: "done", text: "Hello there, friend.", rounds: 1 });
    const types = events
      .map((event) => event.type)
      .filter((type, index, all) => type !== "text_delta" || all[index - 1] !== "text_delta");
    expect(types).toEqual(["agent_start", "turn_start", "text_delta", "usage", "turn_end", "agent_end"]);
    expect(
      events
        .filter((event) => event.type === "text_delta")
        .map((event) => (event as { text: string }).text)
        .join(""),
    ).toBe("Hello there, friend.");
    expect(events.find((event) => event.type === "usage")).toEqual({
      type: "usage",
      provider: "openai-compat",
      model: "gpt-4o-mini",
      inputTokens: 100,
      outputTokens: 5,
      cachedTokens: 0,
      cost: (100 * 0.15 + 5 * 0.6) / 1e6,
      priced: true,
      estimated: false,
    });
    expect(messages.at(-1)).toEqual({ role: "assistant", content: "Hello there, friend." });
  });

  test("counts the input the provider read from its prompt cache, and prices it at the cached rate", async ({
    home,
  }) => {
    const { events } = await runLoop(home, [
      { text: "Cached.", usage: { prompt: 10_000, completion: 10, cached: 8_000 } },
    ]);
    expect(events.find((event) => event.type === "usage")).toMatchObject({
      inputTokens: 10_000,
      cachedTokens: 8_000,
      cost: (2_000 * 0.15 + 8_000 * 0.075 + 10 * 0.6) / 1e6,
    });
  });

  test("estimates usage with the tokenizer when the stream reports none", async ({ home }) => {
    const { events } = await runLoop(home, [{ text: "no usage in this stream" }]);
    const usage = events.find((event) => event.type === "usage") as Extract<AgentEvent, { type: "usage" }>;
    expect(usage.estimated).toBe(true);
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(usage.outputTokens).toBe(5);
  });

  test("runs the calls of one response in parallel and returns the results in call order with their ids", async ({
    home,
  }) => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const waiter = defineTool({
      name: "wait_for_other",
      effect: "read",
      description: "Waits.",
      parameters: z.object({}),
      timeoutMs: 2_000,
      handler: async () => {
        await released;
        return "waited";
      },
    });
    const releaser = defineTool({
      name: "release_other",
      effect: "read",
      description: "Releases.",
      parameters: z.object({}),
      handler: async () => {
        release();
        return "released";
      },
    });
    const { result, events, model } = await runLoop(
      home,
      [
        {
          toolCalls: [
            { name: "wait_for_other", arguments: {}, id: "first" },
            { name: "release_other", arguments: {}, id: "second" },
            { name: "lookup", arguments: { word: "x" }, id: "third" },
          ],
        },
        { text: "all done" },
      ],
      { tools: [waiter, releaser, lookup] },
    );
    expect(result.reason).toBe("done");
    const toolEvents = events.filter((event) => ["tool_calls", "tool_start", "tool_end"].includes(event.type));
    expect(toolEvents[0]).toEqual({
      type: "tool_calls",
      turn: 1,
      names: ["wait_for_other", "release_other", "lookup"],
    });
    expect(toolEvents.slice(1, 4).map((event) => event.type)).toEqual(["tool_start", "tool_start", "tool_start"]);
    const results = model.requests[1]!.messages.filter((message) => message.role === "tool");
    expect(results).toEqual([
      { role: "tool", tool_call_id: "first", content: "waited" },
      { role: "tool", tool_call_id: "second", content: "released" },
      { role: "tool", tool_call_id: "third", content: "definition of x" },
    ]);
    const assistant = model.requests[1]!.messages.at(-4) as Extract<Message, { role: "assistant" }>;
    expect(assistant.tool_calls!.map((call) => call.id)).toEqual(["first", "second", "third"]);
  });

  test("runs 12 parallel calls that wait on the run's signal without a MaxListenersExceededWarning", async ({
    home,
  }) => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      const napping = defineTool({
        name: "nap",
        description: "Naps.",
        parameters: z.object({ n: z.number() }),
        effect: "read",
        handler: async ({ n }, context) => {
          await sleep(50, context.signal);
          return `woke ${n}`;
        },
      });
      const calls = Array.from({ length: 12 }, (_, n) => ({ name: "nap", arguments: { n }, id: `nap${n}` }));
      const { result, model } = await runLoop(home, [{ toolCalls: calls }, { text: "rested" }], { tools: [napping] });
      expect(result.reason).toBe("done");
      const results = model.requests[1]!.messages.filter((message) => message.role === "tool").map(
        (message) => message.content,
      );
      expect(results).toEqual(calls.map((_, n) => `woke ${n}`));
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.map((warning) => `${warning.name}: ${warning.message}`)).toEqual([]);
  });

  test("reports the model's reasoning and names each tool call while its arguments still stream", async ({ home }) => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const calls = [{ name: "lookup", arguments: { word: "towel" }, id: "call_t" }];
    const { result, events } = await runLoop(
      home,
      [{ reasoning: "Look it up.", toolCalls: calls, holdArguments: held }, { text: "Done." }],
      { tools: [lookup], onEvent: (event) => event.type === "tool_call_start" && release() },
    );
    expect(result.reason).toBe("done");
    const shown = ["reasoning_delta", "tool_call_start", "tool_calls", "tool_start"];
    const relevant = events.filter((event) => shown.includes(event.type));
    expect(relevant).toEqual([
      { type: "reasoning_delta", turn: 1, text: "Look " },
      { type: "reasoning_delta", turn: 1, text: "it up" },
      { type: "reasoning_delta", turn: 1, text: "." },
      { type: "tool_call_start", turn: 1, callId: "call_t", name: "lookup" },
      { type: "tool_calls", turn: 1, names: ["lookup"] },
      {
        type: "tool_start",
        turn: 1,
        callId: "call_t",
        name: "lookup",
        arguments: '{"word":"towel"}',
        input: { word: "towel" },
      },
    ]);
  });

  test("reports tool results and errors with elapsed time in tool_end events", async ({ home }) => {
    const { events } = await runLoop(
      home,
      [
        {
          toolCalls: [
            { name: "lookup", arguments: { word: "cat" }, id: "a" },
            { name: "nope", arguments: {}, id: "b" },
          ],
        },
        { text: "ok" },
      ],
      { tools: [lookup] },
    );
    const ends = events.filter((event) => event.type === "tool_end") as Array<
      Extract<AgentEvent, { type: "tool_end" }>
    >;
    ends.sort((a, b) => a.callId.localeCompare(b.callId)); // emitted in completion order
    expect(
      ends.map(({ callId, arguments: args, input, result, isError }) => ({ callId, args, input, result, isError })),
    ).toEqual([
      { callId: "a", args: '{"word":"cat"}', input: { word: "cat" }, result: "definition of cat", isError: false },
      { callId: "b", args: "{}", input: {}, result: expect.stringContaining("Unknown tool 'nope'"), isError: true },
    ]);
    for (const end of ends) expect(end.elapsedMs).toBeGreaterThanOrEqual(0);
  });

  test("reports a tool's progress while it runs, and its details in tool_end", async ({ home }) => {
    const download = defineTool({
      name: "download",
      effect: "write",
      description: "Downloads.",
      parameters: z.object({ url: z.string() }),
      handler: async ({ url }, context) => {
        context.onProgress({ message: "Downloaded 1 of 2 MB", fraction: 0.5 });
        return { text: "Saved to ~/Downloads/a.zip", details: { url, bytes: 2_000_000 } };
      },
    });
    const script = [{ toolCalls: [{ name: "download", arguments: { url: "u" }, id: "d" }] }, { text: "ok" }];
    const { events, messages } = await runLoop(home, script, { tools: [download] });
    const tool = events.filter((event) => ["tool_start", "tool_progress", "tool_end"].includes(event.type));
    expect(tool.map((event) => event.type)).toEqual(["tool_start", "tool_progress", "tool_end"]);
    const progress = { message: "Downloaded 1 of 2 MB", fraction: 0.5 };
    expect(tool[1]).toEqual({ type: "tool_progress", turn: 1, callId: "d", name: "download", ...progress });
    const details = { url: "u", bytes: 2_000_000 };
    expect(tool[2]).toMatchObject({ callId: "d", result: "Saved to ~/Downloads/a.zip", isError: false, details });
    expect(messages.find((message) => message.role === "tool")!.content).toBe("Saved to ~/Downloads/a.zip");
  });

  test("keeps tool_end's fields in the JSON-lines order, with no details key when there are none", async ({ home }) => {
    const script = [{ toolCalls: [{ name: "lookup", arguments: { word: "cat" }, id: "a" }] }, { text: "ok" }];
    const { events } = await runLoop(home, script, { tools: [lookup] });
    const end = events.find((event) => event.type === "tool_end")!;
    const keys = ["type", "turn", "callId", "name", "arguments", "input", "result", "isError", "elapsedMs"];
    expect(Object.keys(end)).toEqual(keys);
  });

  test("appends the budget warning to tool results once past the warning threshold", async ({ home }) => {
    const { messages, model } = await runLoop(
      home,
      [{ toolCalls: [{ name: "lookup", arguments: { word: "cat" } }] }, { text: "ok" }],
      { tools: [lookup], thresholds: { warn: 10, compact: 1e9, hard: 1e9 } },
    );
    const result = messages.find((message) => message.role === "tool")!;
    expect(result.content).toMatch(/^definition of cat\n\n\[Context budget warning: about \d+ tokens are in use/);
    expect(model.requests[1]!.messages.find((message) => message.role === "tool")!.content).toBe(result.content);
  });

  test("adds no warning below the threshold", async ({ home }) => {
    const { messages } = await runLoop(
      home,
      [{ toolCalls: [{ name: "lookup", arguments: { word: "cat" } }] }, { text: "ok" }],
      { tools: [lookup] },
    );
    expect(messages.find((message) => message.role === "tool")!.content).toBe("definition of cat");
  });

  test("compacts past the compact threshold: backup, system + summary + last 8, summary written by the LLM", async ({
    home,
  }) => {
    const messages = history(10);
    const before = [...messages];
    const tokens = await new ContextBudget().exactTokens(messages);
    const { result, events, model } = await runLoop(
      home,
      [{ text: "Summary: ten earlier questions about details." }, { text: "fresh answer" }],
      {
        messages,
        thresholds: { warn: tokens - 1, compact: tokens - 1, hard: 1e9 },
      },
    );
    expect(result.reason).toBe("done");
    const [summaryRequest, answerRequest] = model.requests;
    expect(summaryRequest!.tools).toEqual([]);
    expect(summaryRequest!.messages[1]!.content).toContain("user: earlier question 1:");
    const sent = answerRequest!.messages;
    expect(sent).toHaveLength(1 + 1 + 8);
    expect(sent[0]).toEqual({ role: "system", content: "You are Marvin." });
    expect(sent[1]!.role).toBe("system");
    expect(sent[1]!.content).toMatch(
      /^\[Compacted history summary — full text in .*context-backup-.*\.jsonl\]\nSummary: ten earlier questions about details\.$/,
    );
    expect(sent.slice(2)).toEqual(before.slice(-8));

    const compaction = events.filter((event) => event.type === "compaction") as Array<
      Extract<AgentEvent, { type: "compaction" }>
    >;
    expect(compaction.map((event) => event.phase)).toEqual(["start", "end"]);
    expect(compaction[1]!.tokensAfter).toBeLessThan(compaction[0]!.tokensBefore);
    const backup = (await readFile(compaction[1]!.backupPath!, "utf8"))
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(backup).toEqual(before);
  });

  test("compacts too when the conversation is already past the hard limit", async ({ home }) => {
    const { events, model } = await runLoop(home, [{ text: "summary" }, { text: "answer" }], {
      messages: history(10),
      thresholds: { warn: 1, compact: 2, hard: 3 },
    });
    expect(events.some((event) => event.type === "compaction" && event.phase === "end")).toBe(true);
    expect(model.requests[1]!.messages).toHaveLength(10);
  });

  test("shortens huge tool results it had to keep when compaction alone cannot get under the hard limit", async ({
    home,
  }) => {
    const messages = history(6);
    messages.splice(
      -1,
      0,
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_big", type: "function", function: { name: "lookup", arguments: '{"word":"big"}' } }],
      },
      { role: "tool", tool_call_id: "call_big", content: `HEAD ${"word ".repeat(20_000)} TAIL` },
    );
    const { result, model } = await runLoop(home, [{ text: "summary" }, { text: "answer" }], {
      messages,
      thresholds: { warn: 2_000, compact: 3_000, hard: 4_000 },
    });
    expect(result.reason).toBe("done");
    const sentTool = model.requests[1]!.messages.find((message) => message.role === "tool")!;
    expect(sentTool.content!.length).toBeLessThan(5_000);
    expect(sentTool.content).toMatch(/^HEAD /);
    expect(sentTool.content).toMatch(/ TAIL$/);
    expect(sentTool.content).toMatch(
      /characters cut to fit the context window; the full result is in .*context-backup-/,
    );
  });

  test("keeps the partial text when aborted mid-stream", async ({ home }) => {
    const controller = new AbortController();
    const full = "This is a long answer that arrives slowly, piece by piece.";
    const { result, events, messages } = await runLoop(home, [{ text: full, chunkSize: 5, delayMs: 60 }], {
      controller,
      onEvent: (event) => {
        if (event.type === "text_delta" && !controller.signal.aborted)
          setTimeout(() => controller.abort(new Error("stop")), 80);
      },
    });
    expect(result.reason).toBe("aborted");
    expect(result.text.length).toBeGreaterThan(0);
    expect(result.text.length).toBeLessThan(full.length);
    expect(full.startsWith(result.text)).toBe(true);
    expect(messages.at(-1)).toEqual({ role: "assistant", content: result.text });
    expect(events.at(-1)).toEqual({ type: "agent_end", reason: "aborted", text: result.text, rounds: 1 });
    expect(events.some((event) => event.type === "error")).toBe(false);
  });

  test("counts the tokens of an answer stopped mid-stream, estimated as the provider sent no usage", async ({
    home,
  }) => {
    const controller = new AbortController();
    const full = "This is a long answer that arrives slowly, piece by piece.";
    const { result, events } = await runLoop(
      home,
      [{ text: full, chunkSize: 5, delayMs: 60, usage: { prompt: 999, completion: 999 } }],
      {
        controller,
        onEvent: (event) => {
          if (event.type === "text_delta" && !controller.signal.aborted)
            setTimeout(() => controller.abort(new Error("stop")), 80);
        },
      },
    );
    expect(result.reason).toBe("aborted");
    const usage = events.filter((event) => event.type === "usage");
    expect(usage).toEqual([
      expect.objectContaining({
        provider: "openai-compat",
        model: "gpt-4o-mini",
        outputTokens: await countTextTokens(result.text),
        estimated: true,
      }),
    ]);
    expect((usage[0] as Extract<AgentEvent, { type: "usage" }>).inputTokens).toBeGreaterThan(5);
    expect(events.indexOf(usage[0]!)).toBeLessThan(events.length - 1);
  });

  test("stopped during its tools, a round is counted once and its answer is not repeated", async ({ home }) => {
    const controller = new AbortController();
    const waitForStop = defineTool({
      name: "wait_for_stop",
      description: "Waits until stopped.",
      parameters: z.object({}),
      effect: "session",
      handler: (_args, context) =>
        new Promise((resolve) => context.signal.addEventListener("abort", () => resolve("stopped"), { once: true })),
    });
    const { result, events, messages } = await runLoop(
      home,
      [
        {
          text: "Waiting.",
          toolCalls: [{ name: "wait_for_stop", arguments: {} }],
          usage: { prompt: 50, completion: 7 },
        },
      ],
      {
        tools: [waitForStop],
        controller,
        onEvent: (event) => {
          if (event.type === "tool_start") setTimeout(() => controller.abort(new Error("stop")), 20);
        },
      },
    );
    expect(result.reason).toBe("aborted");
    expect(events.filter((event) => event.type === "usage")).toEqual([
      expect.objectContaining({ inputTokens: 50, outputTokens: 7, estimated: false }),
    ]);
    expect(messages.filter((message) => message.role === "assistant")).toHaveLength(1);
  });

  test("stops after the round limit and asks once more without tools", async ({ home }) => {
    const script: ChatScript[] = [1, 2, 3].map((index) => ({
      toolCalls: [{ name: "lookup", arguments: { word: `w${index}` } }],
    }));
    script.push({
      text: "I tried, but here is one more call:",
      toolCalls: [{ name: "lookup", arguments: { word: "ignored" } }],
    });
    const { result, events, messages, model } = await runLoop(home, script, { tools: [lookup], maxRounds: 3 });
    expect(result).toEqual({ reason: "done", text: "I tried, but here is one more call:", rounds: 4 });
    expect(model.requests).toHaveLength(4);
    expect(model.requests.slice(0, 3).every((request) => request.tools.length === 1)).toBe(true);
    expect(model.requests[3]!.tools).toEqual([]);
    expect(model.requests[3]!.messages.at(-1)).toEqual({
      role: "system",
      content:
        "Tool-call limit reached (3 rounds). Do not call any more tools: answer now with what you have, and say what " +
        "is left undone.",
    });
    expect(events).toContainEqual({
      type: "notice",
      level: "warning",
      text: "Reached the limit of 3 tool rounds; asking for a final answer.",
    });
    expect(events.filter((event) => event.type === "tool_calls")).toHaveLength(3);
    expect(messages.at(-1)).toEqual({ role: "assistant", content: "I tried, but here is one more call:" });
  });

  test("reports a provider failure as an error event and keeps the text already streamed", async ({ home }) => {
    const cut = "The response stream from openai-compat ended before the model finished (connection closed).";
    const { result, events, messages } = await runLoop(home, [
      { text: "Partial answ", chunkSize: 4, error: { kind: "stream_cut", message: cut } },
    ]);
    expect(result.reason).toBe("error");
    expect(result.error).toMatch(/ended before the model finished|stream failed/);
    expect(result.text).toBe("Partial answ");
    expect(messages.at(-1)).toEqual({ role: "assistant", content: result.text });
    expect(events.find((event) => event.type === "error")).toEqual({ type: "error", message: result.error });
    expect(events.at(-1)).toMatchObject({ type: "agent_end", reason: "error" });
    expect(events.filter((event) => event.type === "usage")).toEqual([
      expect.objectContaining({ outputTokens: await countTextTokens(result.text), estimated: true }),
    ]);
  });
});
