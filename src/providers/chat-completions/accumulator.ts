import type { FinishReason, LLMResponse, ProviderEvent, TokenUsage, ToolCall } from "../types.js";
import type { CompletionChunk, DeltaContent, ToolCallFragment } from "./chunk-schema.js";

/** What a chunk adds as it arrives: text, reasoning and tool-call starts. */
type DeltaEvent = Exclude<ProviderEvent, { type: "done" | "error" }>;

interface PartialToolCall {
  id: string;
  name: string;
  arguments: string;
  announced: boolean;
}

function callId(index: number, call: PartialToolCall): string {
  return call.id || `call_${index}`;
}

function mapFinishReason(raw: string): FinishReason {
  switch (raw) {
    case "stop":
    case "tool_calls":
    case "length":
    case "content_filter":
      return raw;
    case "function_call":
      return "tool_calls";
    default:
      return "other";
  }
}

/** A delta's answer text and reasoning: its content as a string, or Mistral's `text` and `thinking` parts. */
function contentOf(content: DeltaContent): { text: string; thinking: string } {
  if (typeof content === "string") return { text: content, thinking: "" };
  let text = "";
  let thinking = "";
  for (const part of content ?? []) {
    if (part.type === "text") text += part.text ?? "";
    else if (part.type === "thinking") thinking += (part.thinking ?? []).map((inner) => inner.text ?? "").join("");
  }
  return { text, thinking };
}

/** The tokens a usage chunk reports, and the cost when the service says what it billed (OpenRouter). */
function usageOf(usage: NonNullable<CompletionChunk["usage"]>): TokenUsage {
  const cached = usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens;
  const upstream = usage.is_byok ? (usage.cost_details?.upstream_inference_cost ?? 0) : 0;
  return {
    promptTokens: usage.prompt_tokens ?? 0,
    completionTokens: usage.completion_tokens ?? 0,
    ...(typeof cached === "number" ? { cachedTokens: cached } : {}),
    ...(typeof usage.cost === "number" ? { costUsd: usage.cost + upstream } : {}),
  };
}

/**
 * Folds validated OpenAI-style stream chunks into one response, returning for each chunk the text, reasoning
 * and tool-call starts it adds, as events. Tool calls are keyed by
 * `tool_calls[].index`: the first fragment of an index brings id and name, later ones
 * only append arguments (empty or null names never overwrite a known one).
 */
export class ChunkAccumulator {
  private text = "";
  private reasoning = "";
  private readonly calls = new Map<number, PartialToolCall>();
  private finish: FinishReason | undefined;
  private usage: TokenUsage | undefined;
  private model: string;
  /** The events of the chunk being pushed. */
  private added: DeltaEvent[] = [];

  constructor(requestedModel: string) {
    this.model = requestedModel;
  }

  /** Consumes one chunk; returns what it adds. */
  push(chunk: CompletionChunk): DeltaEvent[] {
    this.added = [];
    if (chunk.model) this.model = chunk.model;
    if (chunk.usage && typeof chunk.usage.prompt_tokens === "number") this.usage = usageOf(chunk.usage);
    for (const choice of chunk.choices ?? []) {
      if ((choice.index ?? 0) !== 0) continue;
      const delta = choice.delta;
      const content = contentOf(delta?.content);
      if (content.text) {
        this.text += content.text;
        this.added.push({ type: "text_delta", text: content.text });
      }
      const reasoning = delta?.reasoning_content ?? delta?.reasoning ?? content.thinking;
      if (reasoning) {
        this.reasoning += reasoning;
        this.added.push({ type: "reasoning_delta", text: reasoning });
      }
      for (const fragment of delta?.tool_calls ?? []) this.addToolFragment(fragment);
      if (choice.finish_reason) {
        this.finish = mapFinishReason(choice.finish_reason);
        // A call whose id never came is announced now, under the id it will keep.
        for (const [index, call] of this.calls) this.announce(index, call, true);
      }
    }
    return this.added;
  }

  private addToolFragment(fragment: ToolCallFragment): void {
    const index = fragment.index ?? this.calls.size;
    const name = fragment.function?.name ?? "";
    const args = fragment.function?.arguments ?? "";
    let call = this.calls.get(index);
    if (!call) {
      call = { id: fragment.id ?? "", name, arguments: args, announced: false };
      this.calls.set(index, call);
    } else {
      if (!call.id && fragment.id) call.id = fragment.id;
      if (!call.name && name) call.name = name;
      call.arguments += args;
    }
    this.announce(index, call, false);
  }

  /** Reports a call's start once, as soon as its name and id are known (or the stream finished). */
  private announce(index: number, call: PartialToolCall, finished: boolean): void {
    if (call.announced || !call.name || (!call.id && !finished)) return;
    call.announced = true;
    call.id = callId(index, call);
    this.added.push({ type: "tool_call_start", call: { id: call.id, name: call.name, index } });
  }

  get hasFinished(): boolean {
    return this.finish !== undefined;
  }

  get textSoFar(): string {
    return this.text;
  }

  result(): LLMResponse {
    const toolCalls: ToolCall[] = [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => ({
        id: callId(index, call),
        type: "function",
        function: { name: call.name, arguments: call.arguments.trim() === "" ? "{}" : call.arguments },
      }));
    return {
      content: this.text,
      toolCalls,
      usage: this.usage,
      model: this.model,
      finishReason: this.finish ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
      ...(this.reasoning ? { reasoning: this.reasoning } : {}),
    };
  }
}
