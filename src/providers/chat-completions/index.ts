import type { EventSourceMessage } from "eventsource-parser";
import { errorMessage } from "../../shared/error-message.js";
import type { ToolSchema } from "../../shared/tool-schema.js";
import type { ProviderConfig } from "../descriptor.js";
import { bearer, type EventReader, streamEvents } from "../event-stream.js";
import { cutFailure, garbledFailure } from "../failures.js";
import { isLocalEndpoint } from "../local-endpoint.js";
import { ProviderError } from "../provider-error.js";
import type {
  ChatRequest,
  LLMProvider,
  ProviderEvent,
  ProviderFailure,
  ProviderName,
  ThinkingLevel,
} from "../types.js";
import { ChunkAccumulator } from "./accumulator.js";
import { parseCompletionChunk } from "./chunk-schema.js";
import type { CompletionsDialect } from "./dialect.js";
import { apiErrorOf, httpErrorFailure, streamErrorFailure } from "./errors.js";
import { completionAsChunk } from "./json-completion.js";
import { type CompletionsMessage, completionsMessages } from "./wire-messages.js";

/** Request fields not every server takes: one a server refuses (a 400 naming it) is left out from then on. */
type OptionalField = "stream_options" | "reasoning_effort";

interface CompletionsRequest {
  model: string;
  messages: CompletionsMessage[];
  stream: true;
  stream_options?: { include_usage: true };
  tools?: readonly ToolSchema[];
  prompt_cache_key?: string;
  reasoning_effort?: "none" | Exclude<ThinkingLevel, "off">;
  /** A dialect's own fields (see ./dialect.ts). */
  [field: string]: unknown;
}

/** The optional field a 400 answer refuses, if it names one. */
function refusedField(error: ProviderFailure, sent: readonly OptionalField[]): OptionalField | undefined {
  if (error.kind !== "bad_request") return undefined;
  return sent.find((field) => error.message.includes(field));
}

/** Reads a Chat Completions stream: `data:` chunks, each checked, then `[DONE]`. */
class ChunkReader implements EventReader {
  readonly accumulator: ChunkAccumulator;

  constructor(private readonly config: ProviderConfig) {
    this.accumulator = new ChunkAccumulator(config.model);
  }

  get hasOutput(): boolean {
    return this.accumulator.textSoFar.length > 0;
  }

  read(message: EventSourceMessage): ProviderEvent[] {
    if (message.data.trim() === "[DONE]") return [this.finish()];
    let json: unknown;
    try {
      json = JSON.parse(message.data);
    } catch (error) {
      const what =
        `stream data that is not valid JSON (${errorMessage(error)}); is ${this.config.baseUrl} an ` +
        "OpenAI-compatible endpoint?";
      return [{ type: "error", error: garbledFailure(this.config, what, this.hasOutput) }];
    }
    const reported = apiErrorOf(json);
    if (message.event === "error" || (reported && json && typeof json === "object" && "error" in json)) {
      const error = streamErrorFailure(this.config, reported ?? { message: message.data }, this.hasOutput);
      return [{ type: "error", error }];
    }
    return this.push(json);
  }

  /** The events of one chunk, or the failure of a chunk of the wrong shape. */
  push(json: unknown): ProviderEvent[] {
    const parsed = parseCompletionChunk(json);
    if ("chunk" in parsed) return this.accumulator.push(parsed.chunk);
    const what = `a stream chunk Marvin does not understand: ${parsed.problem}`;
    return [{ type: "error", error: garbledFailure(this.config, what, this.hasOutput) }];
  }

  end(): ProviderEvent[] {
    return this.accumulator.hasFinished ? [this.finish()] : [];
  }

  /** `done` with the answer when it finished, else the failure of a cut stream. */
  finish(): ProviderEvent {
    if (this.accumulator.hasFinished) return { type: "done", response: this.accumulator.result() };
    return { type: "error", error: cutFailure(this.config, this.hasOutput) };
  }
}

/**
 * The Chat Completions wire protocol, for every OpenAI-compatible backend: groq, openai-compat, and the servers
 * behind them (OpenRouter, vLLM, llama.cpp, LM Studio…). Streams one request at a time (see ProviderEvent); tool
 * calls are reported, never run.
 */
export class ChatCompletionsProvider implements LLMProvider {
  readonly name: ProviderName;
  readonly model: string;
  readonly local: boolean;
  private readonly refused = new Set<OptionalField>();

  constructor(
    private readonly config: ProviderConfig,
    private readonly dialect: CompletionsDialect = {},
  ) {
    this.name = config.name;
    this.model = config.model;
    this.local = isLocalEndpoint(config);
  }

  async *stream(request: ChatRequest): AsyncGenerator<ProviderEvent> {
    for (;;) {
      const body = this.body(request);
      const sent = (["stream_options", "reasoning_effort"] as const).filter((field) => body[field] !== undefined);
      let retry = false;
      for await (const event of this.streamOnce(body, request.signal)) {
        const field = event.type === "error" ? refusedField(event.error, sent) : undefined;
        if (field) {
          this.refused.add(field); // some servers refuse a field they do not know; ask again without it
          retry = true;
          break;
        }
        yield event;
      }
      if (!retry) return;
    }
  }

  private streamOnce(body: CompletionsRequest, signal: AbortSignal | undefined): AsyncGenerator<ProviderEvent> {
    const reader = new ChunkReader(this.config);
    const post = {
      url: `${this.config.baseUrl}/chat/completions`,
      headers: { ...this.dialect.headers, ...bearer(this.config.apiKey) },
      body,
      signal,
    };
    return streamEvents(this.config, post, reader, {
      httpError: (response) => httpErrorFailure(this.config, response, this.dialect.errorAdvice),
      api: "an OpenAI-compatible endpoint",
      notStreamed: (response) =>
        response.headers.get("content-type")?.includes("application/json")
          ? this.jsonCompletion(response, reader)
          : undefined, // some servers send the stream under another content type
    });
  }

  /** The body of a server that answered a streaming request with one JSON completion, as the events of one chunk. */
  private async jsonCompletion(response: Response, reader: ChunkReader): Promise<ProviderEvent[]> {
    const raw = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      parsed = undefined;
    }
    const chunk = completionAsChunk(parsed);
    if (chunk === undefined) {
      const error = new ProviderError(
        `${this.name} answered with JSON that is not a chat completion (${raw.slice(0, 200)}). Check that ` +
          `${this.config.baseUrl} is an OpenAI-compatible /chat/completions endpoint.`,
        { provider: this.name, kind: "bad_request" },
      );
      return [{ type: "error", error }];
    }
    const events = reader.push(chunk);
    if (events.some((event) => event.type === "error")) return events;
    return [...events, reader.finish()];
  }

  private body(request: ChatRequest): CompletionsRequest {
    const messages = completionsMessages(request.messages);
    const body: CompletionsRequest = {
      ...this.dialect.extraFields?.(request),
      model: this.model,
      messages: this.dialect.messages?.(messages) ?? messages,
      stream: true,
    };
    if (this.dialect.streamOptions !== false && !this.refused.has("stream_options")) {
      body.stream_options = { include_usage: true };
    }
    if (request.tools.length > 0) body.tools = request.tools;
    // Only OpenAI's own API is known to take it; other servers may refuse a field they do not know.
    if (this.name === "openai" && request.cacheKey) body.prompt_cache_key = request.cacheKey;
    if (request.thinking && this.dialect.reasoning) Object.assign(body, this.dialect.reasoning(request.thinking));
    else if (request.thinking && !this.refused.has("reasoning_effort")) {
      body.reasoning_effort = request.thinking === "off" ? "none" : request.thinking;
    }
    return body;
  }

  async destroy(): Promise<void> {}
}
