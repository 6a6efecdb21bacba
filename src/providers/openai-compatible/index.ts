import OpenAI, { APIUserAbortError } from "openai";
import type { ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";
import type { ProviderConfig } from "../config.js";
import { isLocalEndpoint } from "../local-endpoint.js";
import { ProviderError } from "../provider-error.js";
import { RequestDeadline } from "../request-deadline.js";
import { wireMessages } from "../transcript.js";
import type { ChatRequest, LLMProvider, LLMResponse, ProviderName } from "../types.js";
import { ChunkAccumulator } from "./accumulator.js";
import { type CompletionChunk, parseCompletionChunk } from "./chunk-schema.js";
import { toProviderError } from "./errors.js";
import { completionAsChunk } from "./json-completion.js";

/** One adapter for every OpenAI-compatible backend: gemini, groq, openai, openai-compat, ollama. */
export class OpenAICompatibleProvider implements LLMProvider {
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

  async chat(request: ChatRequest): Promise<LLMResponse> {
    try {
      return await this.streamOnce(request);
    } catch (error) {
      if (
        this.sendStreamOptions &&
        error instanceof ProviderError &&
        error.kind === "bad_request" &&
        /stream_options/i.test(error.message)
      ) {
        this.sendStreamOptions = false; // some servers reject the usage option; ask again without it
        return this.streamOnce(request);
      }
      throw error;
    }
  }

  private async streamOnce(request: ChatRequest): Promise<LLMResponse> {
    const deadline = new RequestDeadline(this.config, request.signal);
    const accumulator = new ChunkAccumulator(this.model, request);
    try {
      const { data: stream, response } = await this.client.chat.completions
        .create(this.body(request), { signal: deadline.signal })
        .withResponse();
      const chunks = response.headers.get("content-type")?.includes("application/json")
        ? [await this.jsonCompletion(response)]
        : stream;
      for await (const raw of chunks) {
        deadline.touch();
        accumulator.push(this.validChunk(raw, accumulator.textSoFar.length > 0));
      }
    } catch (error) {
      const partialOutput = accumulator.textSoFar.length > 0;
      throw toProviderError(error, this.config, { timedOut: deadline.timedOut, partialOutput });
    } finally {
      deadline.dispose();
    }
    if (!accumulator.hasFinished) {
      // The SDK ends the iteration quietly when its signal aborts: report the timeout or the cancel, not a cut.
      if (deadline.signal.aborted)
        throw toProviderError(new APIUserAbortError(), this.config, {
          timedOut: deadline.timedOut,
          partialOutput: accumulator.textSoFar.length > 0,
        });
      throw new ProviderError(
        `The response stream from ${this.name} ended before the model finished (connection closed mid-answer).`,
        { provider: this.name, kind: "stream_cut", partialOutput: accumulator.textSoFar.length > 0 },
      );
    }
    return accumulator.result();
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
