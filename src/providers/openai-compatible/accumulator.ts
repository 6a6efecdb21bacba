import type { FinishReason, LLMResponse, TokenUsage, ToolCall } from "../types.js";

/** The parts of a chat-completions stream chunk we read; everything else is ignored. */
export interface CompletionChunk {
  model?: string | null;
  choices?: Array<{
    index?: number;
    delta?: {
      content?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      tool_calls?: Array<{
        index?: number;
        id?: string | null;
        function?: { name?: string | null; arguments?: string | null } | null;
      }> | null;
    } | null;
    finish_reason?: string | null;
  }> | null;
  usage?: { prompt_tokens?: number | null; completion_tokens?: number | null } | null;
}

interface PartialToolCall {
  id: string;
  name: string;
  arguments: string;
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

/**
 * Folds OpenAI-style stream chunks into one response. Tool calls are keyed by
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

  constructor(requestedModel: string) {
    this.model = requestedModel;
  }

  /** Consumes one chunk and returns the text it adds (possibly ""). */
  push(chunk: CompletionChunk): string {
    if (chunk.model) this.model = chunk.model;
    if (chunk.usage && typeof chunk.usage.prompt_tokens === "number") {
      this.usage = {
        promptTokens: chunk.usage.prompt_tokens,
        completionTokens: chunk.usage.completion_tokens ?? 0,
      };
    }
    let added = "";
    for (const choice of chunk.choices ?? []) {
      if ((choice.index ?? 0) !== 0) continue;
      const delta = choice.delta;
      if (delta?.content) {
        this.text += delta.content;
        added += delta.content;
      }
      const reasoning = delta?.reasoning_content ?? delta?.reasoning;
      if (reasoning) this.reasoning += reasoning;
      for (const fragment of delta?.tool_calls ?? []) this.addToolFragment(fragment);
      if (choice.finish_reason) this.finish = mapFinishReason(choice.finish_reason);
    }
    return added;
  }

  private addToolFragment(fragment: NonNullable<NonNullable<NonNullable<CompletionChunk["choices"]>[number]["delta"]>["tool_calls"]>[number]): void {
    const index = fragment.index ?? this.calls.size;
    const existing = this.calls.get(index);
    const name = fragment.function?.name ?? "";
    const args = fragment.function?.arguments ?? "";
    if (!existing) {
      this.calls.set(index, { id: fragment.id ?? "", name, arguments: args });
      return;
    }
    if (!existing.id && fragment.id) existing.id = fragment.id;
    if (!existing.name && name) existing.name = name;
    existing.arguments += args;
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
        id: call.id || `call_${index}`,
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
