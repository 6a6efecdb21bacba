import { estimateCost, modelPrice } from "../providers/pricing.js";
import { isProviderError } from "../providers/provider-error.js";
import type { ChatStream } from "../providers/resilient-chat.js";
import { countTextTokens } from "../providers/token-counter.js";
import type { ChatRequest, LLMResponse, Message, ToolCall } from "../providers/types.js";
import { errorMessage } from "../shared/error-message.js";
import { argumentsValue, decodeToolArguments, type ToolArguments } from "../shared/tool-arguments.js";
import type { ToolSchema } from "../shared/tool-schema.js";
import type { ToolOutcome, ToolProgress } from "../tools/kit/define-tool.js";
import { shortenToolResults } from "./compaction.js";
import type { ContextBudget } from "./context-budget.js";
import type { AgentEventListener } from "./events.js";

type ToolMessage = Extract<Message, { role: "tool" }>;

interface LoopDependencies {
  chat: ChatStream;
  /** Name of the configured provider (the fallback may answer instead; see usage events). */
  providerName: string;
  /** Its model, for the usage of a request cut short before the provider reported any. */
  model: string;
  tools: {
    /** The tools to offer in the next request: asked again before each one, as a call can load more. */
    schemas(): readonly ToolSchema[];
    /** Runs one call with its decoded arguments; `onProgress` reports on it while it runs. */
    execute(
      call: ToolCall,
      args: ToolArguments,
      signal: AbortSignal,
      onProgress: (update: ToolProgress) => void,
    ): Promise<ToolOutcome>;
  };
  budget: ContextBudget;
  /** Returns the compacted conversation (backup and summary included). */
  compact: (messages: readonly Message[]) => Promise<{ messages: Message[]; backupPath?: string }>;
  /**
   * For a conversation too long for the model: the chat of a larger-context model of the same provider
   * (MARVIN_OVERFLOW_MODEL), now the session's, and its name; undefined when none is set or it is in use already.
   */
  largerModel?: () => Promise<{ chat: ChatStream; model: string } | undefined>;
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
 * then ask once more without tools. The loop alone runs tools, whichever the provider.
 * Reports everything through `emit`; never throws.
 */
export async function runToolLoop(input: LoopInput, deps: LoopDependencies): Promise<LoopResult> {
  const { messages, maxRounds, signal } = input;
  const { emit } = deps;
  let text = "";
  let round = 0;
  let streamedThisRound = "";
  const fitting = new OverflowRecovery(deps);
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
      const request = { messages, tools: finalRound ? [] : deps.tools.schemas(), signal };
      const response = await fitting.ask(messages, (chat) =>
        askModel(turn, chat, request, deps, (delta) => {
          streamedThisRound += delta;
          text += delta;
        }),
      );
      await reportUsage(response, messages, deps);
      const calls = finalRound ? [] : response.toolCalls;
      // What the provider needs back with this answer (thought signatures) stays with it.
      const replay = response.replay ? { replay: response.replay } : {};
      messages.push(
        calls.length
          ? { role: "assistant", content: response.content || null, tool_calls: calls.map(transcriptCall), ...replay }
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

/** One request's stream, passed on as events of this turn: resolves with the answer, throws the failure. */
async function askModel(
  turn: number,
  chat: ChatStream,
  request: ChatRequest,
  deps: LoopDependencies,
  onText: (delta: string) => void,
): Promise<LLMResponse> {
  for await (const event of chat(request)) {
    switch (event.type) {
      case "text_delta":
        onText(event.text);
        deps.emit({ type: "text_delta", turn, text: event.text });
        break;
      case "reasoning_delta":
        deps.emit({ type: "reasoning_delta", turn, text: event.text });
        break;
      case "tool_call_start":
        deps.emit({ type: "tool_call_start", turn, callId: event.call.id, name: event.call.name });
        break;
      case "notice":
        deps.emit({ type: "notice", level: "warning", text: event.text });
        break;
      case "done":
        return event.response;
      case "error":
        throw event.error;
    }
  }
  throw new Error("The provider's stream ended without an answer or an error.");
}

/** A call as the transcript keeps it: its arguments as text (a provider's decoded value stays out). */
function transcriptCall({ id, type, function: call }: ToolCall): ToolCall {
  return { id, type, function: call };
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
  const results = calls.map((call, index): ToolMessage => {
    const { result, images } = outcomes[index]!;
    return { role: "tool", tool_call_id: call.id, content: result, ...(images?.length ? { images } : {}) };
  });
  const measured = await deps.budget.measure([...conversation, ...results]);
  if (measured.status !== "ok") {
    for (const result of results) result.content += deps.budget.warningText(measured.tokens);
  }
  return results;
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
      // Decoded once, here: the tool, the hooks and every listener get this value.
      const decoded = decodeToolArguments(call.input !== undefined ? call.input : args);
      const input = argumentsValue(decoded);
      deps.emit({ type: "tool_start", turn, callId: call.id, name, arguments: args, input });
      const started = performance.now();
      const onProgress = (update: ToolProgress) =>
        deps.emit({ type: "tool_progress", turn, callId: call.id, name, ...update });
      const outcome = await deps.tools.execute(call, decoded, signal, onProgress);
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
        input,
        result,
        isError,
        ...given,
        elapsedMs,
      });
      return outcome;
    }),
  );
}

/**
 * Seed 003 "Model Cycling": a request refused as too long for the model is asked again, once on a larger-context
 * model when one is configured, then once after compacting the conversation; past that, the person is told what to do.
 */
class OverflowRecovery {
  private chat: ChatStream;
  private model: string;
  private triedLarger = false;
  private compacted = false;

  constructor(private readonly deps: LoopDependencies) {
    this.chat = deps.chat;
    this.model = deps.model;
  }

  async ask(messages: Message[], ask: (chat: ChatStream) => Promise<LLMResponse>): Promise<LLMResponse> {
    for (;;) {
      try {
        return await ask(this.chat);
      } catch (error) {
        if (!isProviderError(error) || error.kind !== "context_overflow" || error.partialOutput) throw error;
        if (!(await this.recover(messages))) throw new Error(this.advice(), { cause: error });
      }
    }
  }

  /** Makes the next attempt fit better; false when there is nothing left to try. */
  private async recover(messages: Message[]): Promise<boolean> {
    const { emit } = this.deps;
    if (!this.triedLarger && this.deps.largerModel) {
      this.triedLarger = true;
      const larger = await this.deps.largerModel();
      if (larger) {
        const text = `${this.tooLong()}: switching to ${larger.model} (MARVIN_OVERFLOW_MODEL).`;
        emit({ type: "notice", level: "warning", text });
        this.chat = larger.chat;
        this.model = larger.model;
        return true;
      }
    }
    if (this.compacted) return false;
    this.compacted = true;
    const length = messages.length;
    emit({ type: "notice", level: "warning", text: `${this.tooLong()}: compacting it and asking again.` });
    await compact(messages, this.deps, (await this.deps.budget.measure(messages)).tokens);
    return messages.length < length;
  }

  private tooLong(): string {
    return `The conversation is too long for ${this.model}`;
  }

  private advice(): string {
    const larger = this.deps.largerModel
      ? ""
      : `, or set MARVIN_OVERFLOW_MODEL to a larger-context model of ${this.deps.providerName}`;
    return (
      `${this.tooLong()}, and compacting it did not make it fit. Start a new ` +
      `conversation (\`clear\`) or shorten the last message${larger}.`
    );
  }
}

async function compactIfNeeded(messages: Message[], deps: LoopDependencies): Promise<void> {
  const { status, tokens } = await deps.budget.measure(messages);
  if (status !== "compact" && status !== "reject") return;
  await compact(messages, deps, tokens);
}

async function compact(messages: Message[], deps: LoopDependencies, tokens: number): Promise<void> {
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
  const billed = estimated ? undefined : response.usage?.costUsd;
  const cost =
    billed ??
    estimateCost(provider, response.model, {
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
    priced: modelPrice(provider, response.model) !== undefined,
    estimated,
  });
}
