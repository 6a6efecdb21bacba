import type { FinishReason, LLMResponse, ProviderEvent, TokenUsage, ToolCall } from "../types.js";
import { replayOf, type ThinkingBlock } from "./replay.js";
import type { StreamEvent, WireContentBlock, WireUsage } from "./stream-events.js";

type Block =
  | { kind: "text"; text: string }
  | { kind: "thinking"; thinking: string; signature: string }
  | { kind: "redacted_thinking"; data: string }
  | { kind: "tool_use"; call: ToolCall; json: string }
  /** A block type Marvin does not use (server tools, citations…): kept out of the answer. */
  | { kind: "other" };

function openBlock(block: WireContentBlock, callId: () => string): Block {
  switch (block.type) {
    case "text":
      return { kind: "text", text: block.text ?? "" };
    case "thinking":
      return { kind: "thinking", thinking: block.thinking ?? "", signature: block.signature ?? "" };
    case "redacted_thinking":
      return { kind: "redacted_thinking", data: block.data ?? "" };
    case "tool_use":
      return {
        kind: "tool_use",
        call: { id: block.id || callId(), type: "function", function: { name: block.name ?? "", arguments: "" } },
        json: "",
      };
    default:
      return { kind: "other" };
  }
}

function finishReason(stopReason: string | undefined, hasCalls: boolean): FinishReason {
  switch (stopReason) {
    case "end_turn":
    case "stop_sequence":
      return "stop";
    case "tool_use":
      return "tool_calls";
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    case "refusal":
      return "content_filter";
    case undefined:
      return hasCalls ? "tool_calls" : "stop";
    default:
      return "other";
  }
}

/** Anthropic's input count leaves out what was read from or written to the cache; Marvin's prompt count has all. */
function tokenUsage(usage: WireUsage): TokenUsage {
  const cacheRead = usage.cache_read_input_tokens ?? 0;
  const cacheWrite = usage.cache_creation_input_tokens ?? 0;
  return {
    promptTokens: (usage.input_tokens ?? 0) + cacheRead + cacheWrite,
    completionTokens: usage.output_tokens ?? 0,
    cachedTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
  };
}

/**
 * Folds the events of one streamed message into the provider events to pass on (text, reasoning, tool-call
 * starts) and, once `message_stop` came, the whole response: text, tool calls (their input JSON put together
 * from its fragments), usage, and the thinking blocks with their signatures as replay data.
 */
export class MessageAssembler {
  private readonly blocks = new Map<number, Block>();
  private readonly usage: WireUsage = {};
  private stopReason: string | undefined;
  private stopped = false;
  private model: string;
  private text = "";
  private reasoning = "";

  constructor(private readonly requestedModel: string) {
    this.model = requestedModel;
  }

  /** The provider events `event` gives rise to. */
  apply(event: StreamEvent): ProviderEvent[] {
    switch (event.type) {
      case "message_start":
        if (event.message.model) this.model = event.message.model;
        this.addUsage(event.message.usage);
        return [];
      case "content_block_start":
        return this.start(event.index, event.content_block);
      case "content_block_delta":
        return this.grow(event.index, event.delta);
      case "message_delta":
        this.stopReason = event.delta.stop_reason ?? this.stopReason;
        this.addUsage(event.usage);
        return [];
      case "message_stop":
        this.stopped = true;
        return [];
      default:
        // ping, content_block_stop (a tool call's input is read once the message is complete), error (the caller's)
        return [];
    }
  }

  /** True once `message_stop` arrived: the response is complete. */
  get finished(): boolean {
    return this.stopped;
  }

  get hasOutput(): boolean {
    return this.text.length > 0;
  }

  result(): LLMResponse {
    const ordered = [...this.blocks.entries()].sort(([a], [b]) => a - b).map(([, block]) => block);
    const toolCalls = ordered.flatMap((block) =>
      block.kind === "tool_use"
        ? [{ ...block.call, function: { ...block.call.function, arguments: block.json.trim() || "{}" } }]
        : [],
    );
    const thinking = ordered.flatMap((block): ThinkingBlock[] => {
      if (block.kind === "thinking")
        return [{ type: "thinking", thinking: block.thinking, signature: block.signature }];
      if (block.kind === "redacted_thinking") return [{ type: "redacted_thinking", data: block.data }];
      return [];
    });
    const replay = replayOf(this.requestedModel, thinking);
    const reported = this.usage.input_tokens != null || this.usage.output_tokens != null;
    return {
      content: this.text,
      toolCalls,
      ...(reported ? { usage: tokenUsage(this.usage) } : {}),
      model: this.model,
      finishReason: finishReason(this.stopReason, toolCalls.length > 0),
      ...(this.reasoning ? { reasoning: this.reasoning } : {}),
      ...(replay ? { replay } : {}),
    };
  }

  private start(index: number, wire: WireContentBlock): ProviderEvent[] {
    const calls = [...this.blocks.values()].filter((block) => block.kind === "tool_use").length;
    const block = openBlock(wire, () => `toolu_marvin_${calls}`);
    this.blocks.set(index, block);
    if (block.kind === "text" && block.text) return this.addText(block.text);
    if (block.kind !== "tool_use") return [];
    return [{ type: "tool_call_start", call: { id: block.call.id, name: block.call.function.name, index: calls } }];
  }

  private grow(index: number, delta: Extract<StreamEvent, { type: "content_block_delta" }>["delta"]): ProviderEvent[] {
    const block = this.blocks.get(index);
    if (!block) return [];
    if (block.kind === "text" && delta.type === "text_delta" && delta.text) {
      block.text += delta.text;
      return this.addText(delta.text);
    }
    if (block.kind === "tool_use" && delta.type === "input_json_delta") block.json += delta.partial_json ?? "";
    if (block.kind === "thinking" && delta.type === "signature_delta") block.signature += delta.signature ?? "";
    if (block.kind === "thinking" && delta.type === "thinking_delta" && delta.thinking) {
      block.thinking += delta.thinking;
      this.reasoning += delta.thinking;
      return [{ type: "reasoning_delta", text: delta.thinking }];
    }
    return [];
  }

  private addText(text: string): ProviderEvent[] {
    this.text += text;
    return [{ type: "text_delta", text }];
  }

  private addUsage(usage: WireUsage | null | undefined): void {
    // Later events repeat the counts so far (message_delta's are cumulative): the newest value of each wins.
    for (const [key, value] of Object.entries(usage ?? {})) {
      if (typeof value === "number") (this.usage as Record<string, number>)[key] = value;
    }
  }
}
