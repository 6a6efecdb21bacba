import type { ProviderConfig } from "../descriptor.js";
import { streamEvents } from "../event-stream.js";
import { isLocalEndpoint } from "../local-endpoint.js";
import type { ChatRequest, LLMProvider, ProviderEvent, ProviderName, ThinkingLevel } from "../types.js";
import { toContents } from "./contents.js";
import { geminiHttpError } from "./errors.js";
import { functionDeclaration } from "./schema.js";
import { GeminiTurn } from "./turn.js";

/** Gemini models that think: 2.5 takes a token budget, 3 and later a level. */
function thinkingConfig(model: string, level: ThinkingLevel | undefined): Record<string, unknown> | undefined {
  const version = /gemini-(\d+(?:\.\d+)?)/.exec(model)?.[1];
  if (!version || Number(version) < 2.5) return undefined;
  const flash = model.includes("flash");
  if (Number(version) >= 3) {
    const levels = { off: flash ? "minimal" : "low", low: "low", medium: flash ? "medium" : "high", high: "high" };
    return { includeThoughts: true, ...(level ? { thinkingLevel: levels[level] } : {}) };
  }
  if (!level) return { includeThoughts: true };
  // 2.5 Pro cannot stop thinking: 128 tokens is its least.
  const budgets = { off: model.includes("pro") ? 128 : 0, low: 1024, medium: 8192, high: 24576 };
  return { includeThoughts: budgets[level] > 0, thinkingBudget: budgets[level] };
}

/** Google's Gemini API, natively: streamGenerateContent over server-sent events. */
export class GeminiProvider implements LLMProvider {
  readonly name: ProviderName;
  readonly model: string;
  readonly local: boolean;

  constructor(private readonly config: ProviderConfig) {
    this.name = config.name;
    this.model = config.model.replace(/^models\//, "");
    this.local = isLocalEndpoint(config);
  }

  /** The answer to `request` as provider events; never throws (see {@link ProviderEvent}). */
  stream(request: ChatRequest): AsyncGenerator<ProviderEvent> {
    const headers: Record<string, string> = this.config.apiKey ? { "x-goog-api-key": this.config.apiKey } : {};
    const post = {
      url: this.url(),
      headers,
      body: this.body(request),
      signal: request.signal,
    };
    return streamEvents(this.config, post, new GeminiTurn(this.config), {
      httpError: async (response) =>
        geminiHttpError(this.config, response.status, response.headers, await response.text(), false),
      api: "Google's Gemini API (GEMINI_BASE_URL)",
    });
  }

  private url(): string {
    return `${this.config.baseUrl}/v1beta/models/${encodeURIComponent(this.model)}:streamGenerateContent?alt=sse`;
  }

  private body(request: ChatRequest): Record<string, unknown> {
    const thinking = thinkingConfig(this.model, request.thinking);
    return {
      ...toContents(request.messages),
      ...(request.tools.length > 0
        ? { tools: [{ functionDeclarations: request.tools.map(functionDeclaration) }] }
        : {}),
      ...(thinking ? { generationConfig: { thinkingConfig: thinking } } : {}),
    };
  }

  async destroy(): Promise<void> {}
}
