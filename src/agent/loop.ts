import { estimateCost } from "../providers/pricing.js";
import { isProviderError } from "../providers/provider-error.js";
import type { ChatFunction } from "../providers/resilient-chat.js";
import { countTextTokens } from "../providers/token-counter.js";
import type { LLMResponse, Message, ToolCall } from "../providers/types.js";
import type { ToolSchema } from "../shared/tool-schema.js";
import type { ToolOutcome, ToolProgress } from "../tools/kit/define-tool.js";
import { shortenToolResults } from "./compaction.js";
import type { ContextBudget } from "./context-budget.js";
import type { AgentEventListener } from "./events.js";

type ToolMessage = Extract<Message, { role: "tool" }>;

import { errorMessage } from "../shared/error-message.js";

interface LoopDependencies {
  chat: ChatFunction;
  /** Name of the configured provider (the fallback may answer instead; see usage events). */
  providerName: string;
  /** Its model, for the usage of a request cut short before the provider reported any. */
  model: string;
  tools: {
    /** The tools to offer in the next request: asked again before each one, as a call can load more. */
    schemas(): readonly ToolSchema[];
    /** Runs one call; `onProgress` reports on it while it runs. */
    execute(call: ToolCall, signal: AbortSignal, onProgress: (update: ToolProgress) => void): Promise<ToolOutcome>;
  };
  budget: ContextBudget;
  /** Returns the compacted conversation (backup and summary included). */
  compact: (messages: readonly Message[]) => Promise<{ messages: Message[]; backupPath?: string }>;
  emit: AgentEventListener;
}

interface LoopInput {
  /** The conversation, ending with the new user message. Appended to in place. */
  messages: Message[];
  maxRounds: number;
  signal: AbortSignal;
}

export interface LoopResult {
  reason: "done" | "error" | "aborted";
  /** All assistant text streamed during this run. */
  text: string;
  rounds: number;
  error?: string;
}

const ROUND_LIMIT_NOTE = (rounds: number) =>
  `Tool-call limit reached (${rounds} rounds). Do not call any more tools: answer now with what you have, and say ` +
  `what is left undone.`;

/**
 * The agent loop (seed 000 §2.3): ask the model, run the tools it calls (in parallel,
 * results in call order), repeat until it answers with text or the round limit is hit,
 * then ask once more without tools. Reports everything through `emit`; never throws.
 */
export async function runToolLoop(input: LoopInput, deps: LoopDependencies): Promise<LoopResult> {
  const { messages, maxRounds, signal } = input;
  const { emit } = deps;
  let text = "";
  let round = 0;
  let streamedThisRound = "";
  const finish = (reason: LoopResult["reason"], error?: string): LoopResult => {
    emit({ type: "agent_end", reason, text, rounds: round });
    return { reason, text, rounds: round, ...(error ? { error } : {}) };
  };

  emit({ type: "agent_start", maxRounds });
  try {
    while (true) {
      round += 1;
      const finalRound = round > maxRounds;
      await compactIfNeeded(messages, deps);
      emit({ type: "turn_start", turn: round });
      if (finalRound) {
        emit({
          type: "notice",
          level: "warning",
          text: `Reached the limit of ${maxRounds} tool rounds; asking for a final answer.`,
        });
        messages.push({ role: "system", content: ROUND_LIMIT_NOTE(maxRounds) });
      }
      streamedThisRound = "";
      const turn = round;
      const response = await deps.chat({
        messages,
        tools: finalRound ? [] : deps.tools.schemas(),
        signal,
        onDelta: (delta) => {
          streamedThisRound += delta;
          text += delta;
          emit({ type: "text_delta", turn, text: delta });
        },
        onReasoningDelta: (delta) => emit({ type: "reasoning_delta", turn, text: delta }),
        onToolCallStart: (call) => emit({ type: "tool_call_start", turn, callId: call.id, name: call.name }),
        onNotice: (notice) => emit({ type: "notice", level: "warning", text: notice }),
        runTools: providerToolRunner(turn, messages, deps, signal),
      });
      await reportUsage(response, messages, deps);
      const calls = finalRound ? [] : response.toolCalls;
      // What the provider needs back with this answer (thought signatures) stays with it.
      const replay = response.replay ? { replay: response.replay } : {};
      messages.push(
        calls.length
          ? { role: "assistant", content: response.content || null, tool_calls: calls, ...replay }
          : { role: "assistant", content: response.content, ...replay },
      );
      streamedThisRound = "";
      if (calls.length === 0) {
        emit({ type: "turn_end", turn: round, finishReason: response.finishReason });
        return finish("done");
      }
      messages.push(...(await runToolRound(round, calls, messages, deps, signal)));
      emit({ type: "turn_end", turn: round, finishReason: response.finishReason });
      if (signal.aborted) throw signal.reason ?? new Error("aborted");
    }
  } catch (error) {
    if (streamedThisRound) {
      // The request was cut short (Ctrl+C, a broken stream): its tokens were spent all the same.
      await reportPartialUsage(streamedThisRound, error, messages, deps);
      messages.push({ role: "assistant", content: streamedThisRound });
    }
    if (signal.aborted || (isProviderError(error) && error.kind === "aborted")) return finish("aborted");
    const message = errorMessage(error);
    emit({ type: "error", message });
    return finish("error", message);
  }
}

/**
 * Runs one batch of calls and returns their results as tool messages, with the context
 * budget's warning added once the conversation plus these results pass a threshold.
 */
async function runToolRound(
  turn: number,
  calls: ToolCall[],
  conversation: readonly Message[],
  deps: LoopDependencies,
  signal: AbortSignal,
): Promise<ToolMessage[]> {
  const outcomes = await runToolBatch(turn, calls, conversation, deps, signal);
  const results = calls.map(
    (call, index): ToolMessage => ({
      role: "tool",
      tool_call_id: call.id,
      content: outcomes[index]!.result,
    }),
  );
  const measured = await deps.budget.measure([...conversation, ...results]);
  if (measured.status !== "ok") {
    for (const result of results) result.content += deps.budget.warningText(measured.tokens);
  }
  return results;
}

/**
 * Tool batches asked for from inside a provider's own tool loop (Copilot). The provider
 * keeps those calls and results in its own context, so they are counted on top of the
 * conversation for this request: read_file's budget gate and the warnings see them too.
 */
function providerToolRunner(
  turn: number,
  messages: readonly Message[],
  deps: LoopDependencies,
  signal: AbortSignal,
): (calls: ToolCall[]) => Promise<string[]> {
  const context: Message[] = [...messages];
  return async (calls) => {
    context.push({ role: "assistant", content: null, tool_calls: calls });
    const results = await runToolRound(turn, calls, context, deps, signal);
    context.push(...results);
    return results.map((result) => result.content);
  };
}

async function runToolBatch(
  turn: number,
  calls: ToolCall[],
  conversation: readonly Message[],
  deps: LoopDependencies,
  signal: AbortSignal,
): Promise<ToolOutcome[]> {
  deps.emit({ type: "tool_calls", turn, names: calls.map((call) => call.function.name) });
  deps.budget.track(conversation);
  return Promise.all(
    calls.map(async (call) => {
      const { name, arguments: args } = call.function;
      deps.emit({ type: "tool_start", turn, callId: call.id, name, arguments: args });
      const started = performance.now();
      const onProgress = (update: ToolProgress) =>
        deps.emit({ type: "tool_progress", turn, callId: call.id, name, ...update });
      const outcome = await deps.tools.execute(call, signal, onProgress);
      const elapsedMs = Math.round(performance.now() - started);
      // Field by field: their order is part of the JSON-lines output.
      const { result, isError, details } = outcome;
      const given = details === undefined ? {} : { details };
      deps.emit({
        type: "tool_end",
        turn,
        callId: call.id,
        name,
        arguments: args,
        result,
        isError,
        ...given,
        elapsedMs,
      });
      return outcome;
    }),
  );
}

async function compactIfNeeded(messages: Message[], deps: LoopDependencies): Promise<void> {
  const { status, tokens } = await deps.budget.measure(messages);
  if (status !== "compact" && status !== "reject") return;
  deps.emit({ type: "compaction", phase: "start", tokensBefore: tokens });
  const compacted = await deps.compact(messages);
  messages.splice(0, messages.length, ...compacted.messages);
  if ((await deps.budget.measure(messages)).status === "reject") shortenToolResults(messages, compacted.backupPath);
  const after = await deps.budget.exactTokens(messages);
  deps.emit({
    type: "compaction",
    phase: "end",
    tokensBefore: tokens,
    tokensAfter: after,
    backupPath: compacted.backupPath,
  });
}

/** Usage of a request that streamed `text` and then failed or was stopped, estimated with the tokenizer. */
async function reportPartialUsage(
  text: string,
  error: unknown,
  requestMessages: readonly Message[],
  deps: LoopDependencies,
): Promise<void> {
  const provider = isProviderError(error) ? { provider: error.provider } : {};
  const response: LLMResponse = { content: text, toolCalls: [], model: deps.model, finishReason: "other", ...provider };
  await reportUsage(response, requestMessages, deps).catch(() => undefined);
}

/** Emits a usage event; estimates with the tokenizer when the stream carried no usage. */
export async function reportUsage(
  response: LLMResponse,
  requestMessages: readonly Message[],
  deps: Pick<LoopDependencies, "budget" | "emit" | "providerName">,
): Promise<void> {
  const provider = response.provider ?? deps.providerName;
  let inputTokens = response.usage?.promptTokens;
  let outputTokens = response.usage?.completionTokens;
  const estimated = inputTokens === undefined;
  if (inputTokens === undefined || outputTokens === undefined) {
    inputTokens = await deps.budget.exactTokens(requestMessages);
    outputTokens = await countTextTokens(
      response.content + response.toolCalls.map((call) => call.function.arguments).join(""),
    );
  }
  const cachedTokens = estimated ? 0 : (response.usage?.cachedTokens ?? 0);
  const cost = estimateCost(provider, response.model, {
    input: inputTokens,
    output: outputTokens,
    cached: cachedTokens,
    cacheWrite: estimated ? 0 : response.usage?.cacheWriteTokens,
  });
  deps.emit({
    type: "usage",
    provider,
    model: response.model,
    inputTokens,
    outputTokens,
    cachedTokens,
    cost,
    estimated,
  });
}
