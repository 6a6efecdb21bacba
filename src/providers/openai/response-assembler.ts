import type { FinishReason, LLMResponse, ProviderEvent, TokenUsage, ToolCall } from "../types.js";
import { type ReasoningItem, type ResponsesProviderName, replayOf } from "./replay.js";
import type { StreamEvent, WireOutputItem, WireUsage } from "./stream-events.js";

type Item =
  | { kind: "message"; text: string }
  | { kind: "function_call"; call: ToolCall; announced: boolean }
  | { kind: "reasoning"; started: boolean; part?: number; replay?: ReasoningItem }
  /** An item type Marvin does not use (hosted tools…): kept out of the answer. */
  | { kind: "other" };

type Ending = Extract<StreamEvent, { type: "response.completed" | "response.incomplete" }>;

function openItem(item: WireOutputItem): Item {
  switch (item.type) {
    case "message":
      return { kind: "message", text: "" };
    case "function_call":
      return {
        kind: "function_call",
        call: { id: item.call_id ?? "", type: "function", function: { name: item.name ?? "", arguments: "" } },
        announced: false,
      };
    case "reasoning":
      return { kind: "reasoning", started: false };
    default:
      return { kind: "other" };
  }
}

/** The encrypted reasoning of a finished reasoning item, ready to go back; undefined without encrypted content. */
function replayItem(item: WireOutputItem): ReasoningItem | undefined {
  if (!item.encrypted_content) return undefined;
  const summary = (item.summary ?? []).map((part) => ({ type: "summary_text" as const, text: part.text }));
  return { type: "reasoning", summary, encrypted_content: item.encrypted_content };
}

function tokenUsage(usage: WireUsage): TokenUsage {
  return {
    promptTokens: usage.input_tokens ?? 0,
    completionTokens: usage.output_tokens ?? 0,
    cachedTokens: usage.input_tokens_details?.cached_tokens ?? 0,
  };
}

function finishReason(ending: Ending, hasCalls: boolean): FinishReason {
  if (ending.type === "response.completed") return hasCalls ? "tool_calls" : "stop";
  const reason = ending.response.incomplete_details?.reason;
  if (reason === "max_output_tokens") return "length";
  return reason === "content_filter" ? "content_filter" : "other";
}

/**
 * Folds the events of one streamed response into the provider events to pass on (text, reasoning summaries, tool-call
 * starts) and, once it completed, the whole answer: text, function calls, usage, and the encrypted reasoning items as
 * replay data.
 */
export class ResponseAssembler {
  private readonly items = new Map<number, Item>();
  private ending: Ending | undefined;
  private model: string;
  private text = "";
  private reasoning = "";
  private calls = 0;

  constructor(
    private readonly requestedModel: string,
    private readonly provider: ResponsesProviderName = "openai",
  ) {
    this.model = requestedModel;
  }

  /** The provider events `event` gives rise to (the caller handles failures). */
  apply(event: StreamEvent): ProviderEvent[] {
    switch (event.type) {
      case "response.created":
        if (event.response.model) this.model = event.response.model;
        return [];
      case "response.output_item.added":
        this.items.set(event.output_index, openItem(event.item));
        return this.announce(event.output_index);
      case "response.output_text.delta":
      case "response.refusal.delta":
        return this.addText(event.output_index, event.delta);
      case "response.function_call_arguments.delta":
        return this.grow(event.output_index, (call) => (call.function.arguments += event.delta));
      case "response.function_call_arguments.done":
        return this.grow(event.output_index, (call) => (call.function.arguments = event.arguments));
      case "response.reasoning_summary_text.delta":
        return this.addReasoning(event.output_index, event.delta, event.summary_index ?? 0);
      case "response.reasoning_text.delta":
        return this.addReasoning(event.output_index, event.delta, undefined);
      case "response.output_item.done":
        return this.finishItem(event.output_index, event.item);
      case "response.completed":
      case "response.incomplete":
        this.ending = event;
        if (event.response.model) this.model = event.response.model;
        return [];
      default:
        return []; // response.failed and error: the caller's
    }
  }

  /** True once the response completed (or ended incomplete): the answer is all there. */
  get finished(): boolean {
    return this.ending !== undefined;
  }

  get hasOutput(): boolean {
    return this.text.length > 0;
  }

  result(): LLMResponse {
    const ordered = [...this.items.entries()].sort(([a], [b]) => a - b).map(([, item]) => item);
    const toolCalls = ordered.flatMap((item) =>
      item.kind === "function_call"
        ? [
            {
              ...item.call,
              function: { ...item.call.function, arguments: item.call.function.arguments.trim() || "{}" },
            },
          ]
        : [],
    );
    const reasoningItems = ordered.flatMap((item) => (item.kind === "reasoning" && item.replay ? [item.replay] : []));
    const replay = replayOf(this.provider, this.requestedModel, reasoningItems);
    const usage = this.ending?.response.usage;
    return {
      content: this.text,
      toolCalls,
      ...(usage ? { usage: tokenUsage(usage) } : {}),
      model: this.model,
      finishReason: this.ending ? finishReason(this.ending, toolCalls.length > 0) : "other",
      ...(this.reasoning ? { reasoning: this.reasoning } : {}),
      ...(replay ? { replay } : {}),
    };
  }

  /** A function call is announced once its name and call id are known: when it is added, or at the latest when done. */
  private announce(index: number): ProviderEvent[] {
    const item = this.items.get(index);
    if (item?.kind !== "function_call" || item.announced || !item.call.id || !item.call.function.name) return [];
    item.announced = true;
    const call = { id: item.call.id, name: item.call.function.name, index: this.calls++ };
    return [{ type: "tool_call_start", call }];
  }

  private grow(index: number, change: (call: ToolCall) => void): ProviderEvent[] {
    const item = this.items.get(index);
    if (item?.kind === "function_call") change(item.call);
    return [];
  }

  private addText(index: number, text: string): ProviderEvent[] {
    const item = this.items.get(index);
    if (item?.kind !== "message" || !text) return [];
    item.text += text;
    this.text += text;
    return [{ type: "text_delta", text }];
  }

  /** Summary parts, and reasoning items, are separate paragraphs: each new one starts on a new one. */
  private addReasoning(index: number, delta: string, part: number | undefined): ProviderEvent[] {
    const item = this.items.get(index);
    if (item?.kind !== "reasoning" || !delta) return [];
    const paragraph = item.started ? part !== item.part : this.reasoning.length > 0;
    item.started = true;
    item.part = part;
    const text = paragraph ? `\n\n${delta}` : delta;
    this.reasoning += text;
    return [{ type: "reasoning_delta", text }];
  }

  /** A finished item is the last word on it: a call's id, name and arguments; reasoning's encrypted content. */
  private finishItem(index: number, wire: WireOutputItem): ProviderEvent[] {
    const item = this.items.get(index) ?? openItem(wire);
    this.items.set(index, item);
    if (item.kind === "function_call") {
      item.call.id = wire.call_id || item.call.id || `call_${index}`;
      item.call.function.name = wire.name || item.call.function.name;
      if (typeof wire.arguments === "string") item.call.function.arguments = wire.arguments;
      return this.announce(index);
    }
    if (item.kind === "reasoning") item.replay = replayItem(wire);
    if (item.kind === "message" && !item.text) {
      // A server that sent the text only with the finished item.
      const text = (wire.content ?? []).map((part) => part.text ?? part.refusal ?? "").join("");
      return this.addText(index, text);
    }
    return [];
  }
}
