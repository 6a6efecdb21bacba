import OpenAI, { APIUserAbortError } from "openai";
import type { ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";
import type { ProviderConfig } from "../descriptor.js";
import { isLocalEndpoint } from "../local-endpoint.js";
import { ProviderError } from "../provider-error.js";
import { RequestDeadline } from "../request-deadline.js";
import { wireMessages } from "../transcript.js";
import type { ChatRequest, LLMProvider, ProviderEvent, ProviderFailure, ProviderName } from "../types.js";
import { ChunkAccumulator } from "./accumulator.js";
import { type CompletionChunk, parseCompletionChunk } from "./chunk-schema.js";
import { toProviderError } from "./errors.js";
import { completionAsChunk } from "./json-completion.js";

/** A server that cannot take `stream_options` (the usage report) says so in a 400. */
function rejectsStreamOptions(error: ProviderFailure): boolean {
  return error.kind === "bad_request" && /stream_options/i.test(error.message);
}

/**
 * The Chat Completions wire protocol, for every OpenAI-compatible backend: gemini, groq, openai, openai-compat,
 * ollama. Streams one request at a time (see ProviderEvent); tool calls are reported, never run.
 */
export class ChatCompletionsProvider implements LLMProvider {
  readonly name: ProviderName;
  readonly model: string;
  readonly local: boolean;
  private readonly client: OpenAI;
  private sendStreamOptions = true;

  constructor(private readonly config: ProviderConfig) {
    this.name = config.name;
    this.model = config.model;
    this.local = isLocalEndpoint(config);
    this.client = new OpenAI({
      apiKey: config.apiKey ?? "not-needed",
      baseURL: config.baseUrl,
      maxRetries: 0,
      timeout: config.timeoutMs,
      logLevel: "off", // failures reach the user once, as Marvin's own message
    });
  }

  async *stream(request: ChatRequest): AsyncGenerator<ProviderEvent> {
    for await (const event of this.streamOnce(request)) {
      if (event.type === "error" && this.sendStreamOptions && rejectsStreamOptions(event.error)) {
        this.sendStreamOptions = false; // some servers reject the usage option; ask again without it
        yield* this.streamOnce(request);
        return;
      }
      yield event;
    }
  }

  private async *streamOnce(request: ChatRequest): AsyncGenerator<ProviderEvent> {
    const deadline = new RequestDeadline(this.config, request.signal);
    const accumulator = new ChunkAccumulator(this.model);
    const failure = (error: unknown): ProviderEvent => ({
      type: "error",
      error: toProviderError(error, this.config, {
        timedOut: deadline.timedOut,
        partialOutput: accumulator.textSoFar.length > 0,
      }),
    });
    try {
      const { data: stream, response } = await this.client.chat.completions
        .create(this.body(request), { signal: deadline.signal })
        .withResponse();
      const chunks = response.headers.get("content-type")?.includes("application/json")
        ? [await this.jsonCompletion(response)]
        : stream;
      for await (const raw of chunks) {
        deadline.touch();
        yield* accumulator.push(this.validChunk(raw, accumulator.textSoFar.length > 0));
      }
      if (accumulator.hasFinished) {
        yield { type: "done", response: accumulator.result() };
      } else if (deadline.signal.aborted) {
        // The SDK ends the iteration quietly when its signal aborts: report the timeout or the cancel, not a cut.
        yield failure(new APIUserAbortError());
      } else {
        const cut =
          `The response stream from ${this.name} ended before the model finished ` + "(connection closed mid-answer).";
        const partialOutput = accumulator.textSoFar.length > 0;
        yield {
          type: "error",
          error: new ProviderError(cut, { provider: this.name, kind: "stream_cut", partialOutput }),
        };
      }
    } catch (error) {
      yield failure(error);
    } finally {
      deadline.dispose(); // a reader that stopped early leaves no request running
    }
  }

  private validChunk(raw: unknown, partialOutput: boolean): CompletionChunk {
    const parsed = parseCompletionChunk(raw);
    if ("chunk" in parsed) return parsed.chunk;
    throw new ProviderError(`${this.name} sent a stream chunk Marvin does not understand: ${parsed.problem}`, {
      provider: this.name,
      kind: "stream_cut",
      partialOutput,
    });
  }

  /** The body of a server that answered a streaming request with one JSON completion. */
  private async jsonCompletion(response: Response): Promise<unknown> {
    const raw = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      parsed = undefined;
    }
    const chunk = completionAsChunk(parsed);
    if (chunk) return chunk;
    throw new ProviderError(
      `${this.name} answered with JSON that is not a chat completion (${raw.slice(0, 200)}). Check that ` +
        `${this.config.baseUrl} is an OpenAI-compatible /chat/completions endpoint.`,
      { provider: this.name, kind: "bad_request" },
    );
  }

  private body(request: ChatRequest): ChatCompletionCreateParamsStreaming {
    const body: ChatCompletionCreateParamsStreaming = {
      model: this.model,
      messages: wireMessages(request.messages) as ChatCompletionCreateParamsStreaming["messages"],
      stream: true,
    };
    if (this.sendStreamOptions) body.stream_options = { include_usage: true };
    if (request.tools.length > 0) body.tools = request.tools as ChatCompletionCreateParamsStreaming["tools"];
    // Only OpenAI's own API is known to take it; other servers may refuse a field they do not know.
    if (this.name === "openai" && request.cacheKey) body.prompt_cache_key = request.cacheKey;
    return body;
  }

  async destroy(): Promise<void> {}
}
