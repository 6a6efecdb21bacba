import { randomUUID } from "node:crypto";
import type { EventSourceMessage } from "eventsource-parser";
import { z } from "zod";
import type { ProviderConfig } from "../descriptor.js";
import type { EventReader } from "../event-stream.js";
import { cutFailure } from "../failures.js";
import { ProviderError } from "../provider-error.js";
import type { FinishReason, LLMResponse, ProviderErrorKind, ProviderEvent, TokenUsage, ToolCall } from "../types.js";
import { type Part, partSchema } from "./contents.js";
import { parseErrorBody } from "./errors.js";

/** The parts of a `GenerateContentResponse` stream chunk Marvin reads. */
const chunkSchema = z.looseObject({
  candidates: z
    .array(
      z.looseObject({
        content: z.looseObject({ parts: z.array(partSchema).optional() }).optional(),
        finishReason: z.string().optional(),
        index: z.number().optional(),
      }),
    )
    .optional(),
  promptFeedback: z.looseObject({ blockReason: z.string().optional() }).optional(),
  usageMetadata: z
    .looseObject({
      promptTokenCount: z.number().optional(),
      candidatesTokenCount: z.number().optional(),
      thoughtsTokenCount: z.number().optional(),
      cachedContentTokenCount: z.number().optional(),
    })
    .optional(),
  modelVersion: z.string().optional(),
});

type Chunk = z.infer<typeof chunkSchema>;

/** Why Gemini stopped, in words the person can act on; `kind` says whether a retry may help. */
const STOPS: Record<string, { why: string; kind: ProviderErrorKind }> = {
  SAFETY: { why: "its safety filter flagged the answer", kind: "bad_request" },
  RECITATION: { why: "the answer recited a source too closely; ask for it in other words", kind: "bad_request" },
  PROHIBITED_CONTENT: { why: "it flagged the content as prohibited", kind: "bad_request" },
  BLOCKLIST: { why: "the answer contains a term on a blocklist", kind: "bad_request" },
  SPII: { why: "the answer would contain sensitive personal information", kind: "bad_request" },
  LANGUAGE: { why: "the conversation is in a language it does not support", kind: "bad_request" },
  IMAGE_SAFETY: { why: "its safety filter flagged an image", kind: "bad_request" },
  OTHER: { why: "of an unspecified problem on its side", kind: "server" },
  MALFORMED_FUNCTION_CALL: { why: "it wrote a tool call it could not complete", kind: "server" },
  UNEXPECTED_TOOL_CALL: { why: "it called a tool it was not offered", kind: "server" },
  TOO_MANY_TOOL_CALLS: { why: "it made too many tool calls in a row", kind: "server" },
  MISSING_THOUGHT_SIGNATURE: { why: "a thought signature was missing from the conversation", kind: "bad_request" },
};

const BLOCKS: Record<string, string> = {
  SAFETY: "its safety filter flagged the request",
  PROHIBITED_CONTENT: "it flagged the request as prohibited content",
  BLOCKLIST: "the request contains a term on a blocklist",
  IMAGE_SAFETY: "its safety filter flagged an image in the request",
};

const CUT_SHORT =
  "Gemini reached its output limit (MAX_TOKENS): the answer is cut short. Ask it to go on, or to be briefer.";

/** Is this a text part of the same kind (answer or thought) that an unsigned chunk may be appended to? */
function joinsText(previous: Part | undefined, part: Part): boolean {
  return (
    previous?.text !== undefined &&
    !previous.functionCall &&
    Boolean(previous.thought) === Boolean(part.thought) &&
    part.thoughtSignature === undefined
  );
}

/**
 * Folds one streamed Gemini answer into events and, at the end, one response. The model's parts are kept as
 * they came (text chunks joined, each thought signature on the part it came with) and returned as replay data.
 */
export class GeminiTurn implements EventReader {
  private readonly parts: Part[] = [];
  private readonly calls: ToolCall[] = [];
  private text = "";
  private reasoning = "";
  private finishReason: string | undefined;
  private blockReason: string | undefined;
  private usage: TokenUsage | undefined;
  private model: string;

  constructor(private readonly config: ProviderConfig) {
    this.model = config.model;
  }

  get hasOutput(): boolean {
    return this.text.length > 0;
  }

  /** The events one server-sent event adds; an error event when it is an error object or not a chunk at all. */
  read(message: EventSourceMessage): ProviderEvent[] {
    return [...this.push(message.data)];
  }

  private *push(data: string): Generator<ProviderEvent> {
    let raw: unknown;
    try {
      raw = JSON.parse(data);
    } catch {
      yield this.failure(`Gemini sent stream data that is not JSON: ${data.slice(0, 200)}`, "stream_cut");
      return;
    }
    const error = parseErrorBody(raw);
    if (error) {
      yield this.failure(
        `Gemini reported an error mid-stream: ${error.message ?? error.status ?? "no details"}`,
        "server",
      );
      return;
    }
    const parsed = chunkSchema.safeParse(raw);
    if (!parsed.success) {
      yield this.failure(`Gemini sent a stream chunk Marvin does not understand: ${data.slice(0, 200)}`, "stream_cut");
      return;
    }
    yield* this.readChunk(parsed.data);
  }

  private *readChunk(chunk: Chunk): Generator<ProviderEvent> {
    if (chunk.modelVersion) this.model = chunk.modelVersion;
    if (chunk.promptFeedback?.blockReason) this.blockReason = chunk.promptFeedback.blockReason;
    const usage = chunk.usageMetadata;
    if (usage?.promptTokenCount !== undefined) {
      this.usage = {
        promptTokens: usage.promptTokenCount,
        // Thinking is billed as output.
        completionTokens: (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0),
        ...(usage.cachedContentTokenCount !== undefined ? { cachedTokens: usage.cachedContentTokenCount } : {}),
      };
    }
    const candidate = chunk.candidates?.find((item) => (item.index ?? 0) === 0);
    for (const part of candidate?.content?.parts ?? []) yield* this.readPart(part);
    if (candidate?.finishReason) this.finishReason = candidate.finishReason;
  }

  private *readPart(part: Part): Generator<ProviderEvent> {
    if (part.functionCall) {
      const index = this.calls.length;
      const id = part.functionCall.id ?? `call_${randomUUID().slice(0, 8)}`;
      const name = part.functionCall.name;
      this.calls.push({
        id,
        type: "function",
        function: { name, arguments: JSON.stringify(part.functionCall.args ?? {}) },
      });
      this.parts.push(part);
      yield { type: "tool_call_start", call: { id, name, index } };
      return;
    }
    if (part.text === undefined && part.thoughtSignature === undefined) return; // a kind Marvin does not use
    const text = part.text ?? "";
    if (text) {
      if (part.thought) this.reasoning += text;
      else this.text += text;
      yield { type: part.thought ? "reasoning_delta" : "text_delta", text };
    }
    const previous = this.parts.at(-1);
    if (joinsText(previous, part)) previous!.text += text;
    else this.parts.push({ ...part, text });
  }

  /** The events that end the stream, once it has ended: a notice for an answer cut short, then done or error. */
  end(): ProviderEvent[] {
    const notice: ProviderEvent[] = this.finishReason === "MAX_TOKENS" ? [{ type: "notice", text: CUT_SHORT }] : [];
    return [...notice, this.finish()];
  }

  private finish(): ProviderEvent {
    if (this.blockReason && !this.finishReason) {
      const why = BLOCKS[this.blockReason] ?? "it blocked the request";
      return this.failure(
        `Gemini refused the request: ${why} (${this.blockReason}). Rephrase it, or ask another provider.`,
        "bad_request",
      );
    }
    const reason = this.finishReason;
    if (!reason) return { type: "error", error: cutFailure(this.config, this.hasOutput) };
    const stop = STOPS[reason];
    if (stop) {
      const retry = stop.kind === "server" ? " Try again." : " Rephrase the request, or ask another provider.";
      return this.failure(`Gemini stopped the answer because ${stop.why} (${reason}).${retry}`, stop.kind);
    }
    return { type: "done", response: this.response(reason) };
  }

  private response(reason: string): LLMResponse {
    const finishReason: FinishReason =
      reason === "MAX_TOKENS" ? "length" : this.calls.length > 0 ? "tool_calls" : reason === "STOP" ? "stop" : "other";
    // Thought summaries are not needed again; a thought part that carries a signature is.
    const kept = this.parts.filter((part) => !part.thought || part.thoughtSignature !== undefined);
    return {
      content: this.text,
      toolCalls: this.calls,
      usage: this.usage,
      model: this.model,
      finishReason,
      ...(this.reasoning ? { reasoning: this.reasoning } : {}),
      ...(kept.some((part) => part.thoughtSignature !== undefined)
        ? { replay: { provider: "gemini", items: kept } }
        : {}),
    };
  }

  private failure(message: string, kind: ProviderErrorKind): ProviderEvent {
    return {
      type: "error",
      error: new ProviderError(message, { provider: this.config.name, kind, partialOutput: this.hasOutput }),
    };
  }
}
