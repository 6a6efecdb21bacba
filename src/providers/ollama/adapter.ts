import type { ProviderConfig } from "../descriptor.js";
import { streamEvents } from "../event-stream.js";
import { jsonLines } from "../json-lines.js";
import { ProviderError } from "../provider-error.js";
import { MessageTokenCounter } from "../token-counter.js";
import type { ChatRequest, LLMProvider, ProviderEvent, ProviderName, ThinkingLevel } from "../types.js";
import { knownToReadImages } from "../vision.js";
import { ContextWindow, estimateRequestTokens } from "./context-window.js";
import { ollamaHttpError } from "./errors.js";
import { toOllamaMessages } from "./messages.js";
import { type ModelFacts, modelFacts } from "./model-facts.js";
import { OllamaTurn } from "./turn.js";

/** One window per server and model while Marvin runs, so that `num_ctx` only ever grows. */
const windows = new Map<string, ContextWindow>();

/**
 * Ollama's `think`: left out when the model cannot think or no level is asked for; a level for models that
 * take levels (gpt-oss, which cannot stop thinking), else true or false.
 */
function thinkValue(model: string, facts: ModelFacts, level: ThinkingLevel | undefined): boolean | string | undefined {
  if (!level || (facts.capabilities && !facts.capabilities.includes("thinking"))) return undefined;
  const takesLevels = facts.thinkingValues?.some((value) => typeof value === "string") ?? /gpt-oss/.test(model);
  if (!takesLevels) return level !== "off";
  const wanted = level === "off" ? "low" : level;
  return facts.thinkingValues === undefined || facts.thinkingValues.includes(wanted) ? wanted : true;
}

/** A local Ollama server, natively: `/api/chat` with a window sized to each request. */
export class OllamaProvider implements LLMProvider {
  readonly name: ProviderName;
  readonly model: string;
  readonly local = true;
  private readonly counter = new MessageTokenCounter();
  private readonly window: ContextWindow;

  constructor(private readonly config: ProviderConfig) {
    this.name = config.name;
    this.model = config.model;
    const key = `${config.baseUrl} ${config.model}`;
    this.window = windows.get(key) ?? new ContextWindow();
    windows.set(key, this.window);
  }

  /** The server's word (`capabilities` has "vision"); the model's name when the server is too old to say. */
  async readsImages(): Promise<boolean> {
    const facts = await modelFacts(this.config);
    const capabilities = facts instanceof ProviderError ? undefined : facts.capabilities;
    return capabilities ? capabilities.includes("vision") : knownToReadImages(this.name, this.model);
  }

  async *stream(request: ChatRequest): AsyncIterable<ProviderEvent> {
    const facts = await modelFacts(this.config, request.signal);
    if (facts instanceof ProviderError) {
      yield { type: "error", error: facts };
      return;
    }
    const estimate = await estimateRequestTokens(this.counter, request.messages, request.tools);
    const { numCtx, notice } = this.window.size(estimate, this.model, facts.contextLength);
    if (notice) yield { type: "notice", text: notice };
    const think = thinkValue(this.model, facts, request.thinking);
    const body = {
      model: this.model,
      messages: toOllamaMessages(request.messages),
      stream: true,
      ...(request.tools.length > 0 ? { tools: request.tools } : {}),
      ...(think === undefined ? {} : { think }),
      options: { num_ctx: numCtx },
    };
    yield* this.send(body, request.signal);
  }

  private send(body: Record<string, unknown>, signal: AbortSignal | undefined): AsyncGenerator<ProviderEvent> {
    const post = { url: `${this.config.baseUrl}/api/chat`, headers: {}, body, signal };
    return streamEvents(this.config, post, new OllamaTurn(this.config), {
      httpError: async (response) => ollamaHttpError(this.config, response.status, await response.text(), false),
      api: "an Ollama server",
      notStreamed: () => undefined, // Ollama's lines come as application/x-ndjson
      frames: jsonLines,
    });
  }

  async destroy(): Promise<void> {}
}
