import type { EventSourceMessage } from "eventsource-parser";
import { z } from "zod";
import type { ProviderConfig } from "../descriptor.js";
import type { EventReader } from "../event-stream.js";
import { ProviderError } from "../provider-error.js";
import type { FinishReason, LLMResponse, ProviderEvent, TokenUsage, ToolCall } from "../types.js";
import { ollamaFailure } from "./errors.js";

/** Ollama's `{"error": "…"}` line, sent when a model fails mid-answer. */
const errorLine = z.looseObject({ error: z.string() });

/** One line of Ollama's `/api/chat` stream. */
const lineSchema = z.looseObject({
  model: z.string().optional(),
  message: z
    .looseObject({
      content: z.string().optional(),
      thinking: z.string().optional(),
      tool_calls: z
        .array(
          z.looseObject({
            id: z.string().optional(),
            function: z.looseObject({ name: z.string(), arguments: z.unknown().optional() }),
          }),
        )
        .optional(),
    })
    .optional(),
  done: z.boolean().optional(),
  done_reason: z.string().optional(),
  prompt_eval_count: z.number().optional(),
  eval_count: z.number().optional(),
});

const CUT_SHORT = `Ollama stopped the answer at its length limit (done_reason "length"): it is cut short.`;

/** Folds the newline-delimited JSON of one Ollama answer into events and, at the end, one response. */
export class OllamaTurn implements EventReader {
  private text = "";
  private reasoning = "";
  private readonly calls: ToolCall[] = [];
  private doneReason: string | undefined;
  private finished = false;
  private usage: TokenUsage | undefined;
  private model: string;

  constructor(private readonly config: ProviderConfig) {
    this.model = config.model;
  }

  get hasOutput(): boolean {
    return this.text.length > 0;
  }

  /** The events one line adds; an error event when it is an error line or not what Ollama sends. */
  read(message: EventSourceMessage): ProviderEvent[] {
    return [...this.push(message.data)];
  }

  private *push(line: string): Generator<ProviderEvent> {
    if (!line.trim()) return;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      raw = undefined;
    }
    const error = errorLine.safeParse(raw);
    if (error.success) {
      yield this.failure(ollamaFailure(this.config, undefined, error.data.error, this.hasOutput));
      return;
    }
    const result = lineSchema.safeParse(raw);
    const parsed = result.success ? result.data : undefined;
    if (!parsed) {
      yield this.failure(
        new ProviderError(`Ollama sent a line Marvin does not understand: ${line.slice(0, 200)}`, {
          provider: this.config.name,
          kind: "stream_cut",
          partialOutput: this.hasOutput,
        }),
      );
      return;
    }
    if (parsed.model) this.model = parsed.model;
    const message = parsed.message;
    if (message?.thinking) {
      this.reasoning += message.thinking;
      yield { type: "reasoning_delta", text: message.thinking };
    }
    if (message?.content) {
      this.text += message.content;
      yield { type: "text_delta", text: message.content };
    }
    // Ollama sends each call whole, arguments as an object, in one line.
    for (const call of message?.tool_calls ?? []) {
      const index = this.calls.length;
      const id = call.id ?? `call_${index}`;
      const args = call.function.arguments;
      const text = typeof args === "string" ? args : JSON.stringify(args ?? {});
      this.calls.push({ id, type: "function", function: { name: call.function.name, arguments: text } });
      yield { type: "tool_call_start", call: { id, name: call.function.name, index } };
    }
    if (parsed.done) {
      this.finished = true;
      this.doneReason = parsed.done_reason;
      if (parsed.prompt_eval_count !== undefined || parsed.eval_count !== undefined) {
        this.usage = { promptTokens: parsed.prompt_eval_count ?? 0, completionTokens: parsed.eval_count ?? 0 };
      }
    }
  }

  private failure(error: ProviderError): ProviderEvent {
    return { type: "error", error };
  }

  /** The events that end the stream, once it has ended: a notice for an answer cut short, then done. */
  end(): ProviderEvent[] {
    if (!this.finished) return []; // a cut
    const notice: ProviderEvent[] = this.doneReason === "length" ? [{ type: "notice", text: CUT_SHORT }] : [];
    return [...notice, this.done()];
  }

  private done(): ProviderEvent {
    const finishReason: FinishReason =
      this.calls.length > 0
        ? "tool_calls"
        : this.doneReason === "length"
          ? "length"
          : this.doneReason === "stop" || !this.doneReason
            ? "stop"
            : "other";
    const response: LLMResponse = {
      content: this.text,
      toolCalls: this.calls,
      usage: this.usage,
      model: this.model,
      finishReason,
      ...(this.reasoning ? { reasoning: this.reasoning } : {}),
    };
    return { type: "done", response };
  }
}
