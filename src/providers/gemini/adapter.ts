import { EventSourceParserStream } from "eventsource-parser/stream";
import type { ProviderConfig } from "../descriptor.js";
import { interruptedFailure } from "../failures.js";
import { isLocalEndpoint } from "../local-endpoint.js";
import { RequestDeadline } from "../request-deadline.js";
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

  async *stream(request: ChatRequest): AsyncIterable<ProviderEvent> {
    const deadline = new RequestDeadline(this.config, request.signal);
    const turn = new GeminiTurn(this.config);
    let answered = false;
    try {
      const response = await fetch(this.url(), {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(this.config.apiKey ? { "x-goog-api-key": this.config.apiKey } : {}),
        },
        body: JSON.stringify(this.body(request)),
        signal: deadline.signal,
      });
      answered = true;
      if (!response.ok || !response.body) {
        const text = await response.text();
        yield { type: "error", error: geminiHttpError(this.config, response.status, response.headers, text, false) };
        return;
      }
      const events = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
      for await (const event of events) {
        deadline.touch();
        for (const produced of turn.push(event.data)) {
          yield produced;
          if (produced.type === "error") return;
        }
      }
    } catch (error) {
      yield { type: "error", error: interruptedFailure(this.config, error, deadline, answered, turn.partialOutput) };
      return;
    } finally {
      deadline.dispose();
    }
    const notice = turn.cutShortNotice;
    if (notice) yield { type: "notice", text: notice };
    yield turn.finish();
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
