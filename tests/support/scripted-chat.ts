import { ProviderError, type ProviderErrorKind } from "../../src/providers/provider-error.js";
import type {
  ChatRequest,
  FinishReason,
  LLMProvider,
  LLMResponse,
  Message,
  ProviderName,
  ToolCall,
} from "../../src/providers/types.js";
import { sleep } from "../../src/shared/sleep.js";
import type { ToolSchema } from "../../src/shared/tool-schema.js";

/** One scripted answer: streamed in this order — reasoning, text, tool calls, then usage or the error. */
export interface ScriptedResponse {
  reasoning?: string;
  text?: string;
  /** Size of the reasoning and text deltas; default 5. */
  chunkSize?: number;
  /** Pause after each text delta, cut short (as "aborted") when the request's signal aborts. */
  delayMs?: number;
  toolCalls?: Array<{ name: string; arguments: string | Record<string, unknown>; id?: string }>;
  /** After each call is announced through onToolCallStart, wait for this before completing it. */
  holdArguments?: Promise<unknown>;
  /** Absent: the response reports no usage, as some streams do. */
  usage?: { prompt: number; completion: number; cached?: number };
  /** Default: "tool_calls" when there are calls, else "stop". */
  finishReason?: FinishReason;
  model?: string;
  /** Fails the request after streaming the above, as a provider does when its stream breaks. */
  error?: { kind: ProviderErrorKind; message: string; status?: number };
}

export type ChatScript = ScriptedResponse | ((request: RecordedChat, index: number) => ScriptedResponse);

/** What a request asked for, copied when it arrived (the loop keeps appending to its messages). */
export interface RecordedChat {
  messages: Message[];
  tools: ToolSchema[];
  standalone: boolean;
}

function pieces(text: string, size: number): string[] {
  const result: string[] = [];
  for (let index = 0; index < text.length; index += size) result.push(text.slice(index, index + size));
  return result;
}

/**
 * A real, in-process LLM provider that replays a script: each request gets the next scripted
 * response, streamed through the request's callbacks as a provider streams it, or the scripted
 * ProviderError. Not a mock — it implements the {@link LLMProvider} contract (and so the
 * `ChatFunction` type through `chat`), like the AI SDK's MockLanguageModel; use it where HTTP and SSE
 * add nothing to what a test checks, and tests/support/llm-server.ts where they do.
 */
export class ScriptedChat implements LLMProvider {
  readonly requests: RecordedChat[] = [];
  /** Stands in for a provider on the internet. */
  readonly local = false;

  constructor(
    private readonly script: ChatScript[],
    readonly name: ProviderName = "openai-compat",
    readonly model = "gpt-4o-mini",
  ) {}

  /** Bound, so `scripted.chat` can be passed on as a ChatFunction. */
  readonly chat = async (request: ChatRequest): Promise<LLMResponse> => {
    const recorded: RecordedChat = {
      messages: structuredClone([...request.messages]),
      tools: [...request.tools],
      standalone: request.standalone ?? false,
    };
    this.requests.push(recorded);
    const index = this.requests.length - 1;
    const entry = this.script[index];
    if (entry === undefined) throw this.failure({ kind: "server", message: `test script exhausted at ${index + 1}` });
    const response = typeof entry === "function" ? entry(recorded, index) : entry;
    return this.replay(response, index, request);
  };

  async destroy(): Promise<void> {}

  private async replay(response: ScriptedResponse, index: number, request: ChatRequest): Promise<LLMResponse> {
    const size = response.chunkSize ?? 5;
    let streamed = "";
    const stopIfAborted = () => {
      if (request.signal?.aborted) throw this.failure({ kind: "aborted", message: "Request cancelled." }, streamed);
    };
    for (const part of pieces(response.reasoning ?? "", size)) request.onReasoningDelta?.(part);
    for (const part of pieces(response.text ?? "", size)) {
      stopIfAborted();
      request.onDelta(part);
      streamed += part;
      if (response.delayMs) await sleep(response.delayMs, request.signal).catch(() => undefined);
    }
    stopIfAborted();
    const toolCalls: ToolCall[] = [];
    for (const [position, call] of (response.toolCalls ?? []).entries()) {
      const id = call.id ?? `call_${index + 1}_${position}`;
      request.onToolCallStart?.({ id, name: call.name, index: position });
      if (response.holdArguments) await response.holdArguments;
      const args = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
      toolCalls.push({ id, type: "function", function: { name: call.name, arguments: args } });
    }
    if (response.error) throw this.failure(response.error, streamed);
    const usage = response.usage && {
      promptTokens: response.usage.prompt,
      completionTokens: response.usage.completion,
      ...(response.usage.cached === undefined ? {} : { cachedTokens: response.usage.cached }),
    };
    return {
      content: streamed,
      toolCalls,
      ...(usage ? { usage } : {}),
      model: response.model ?? this.model,
      finishReason: response.finishReason ?? (toolCalls.length ? "tool_calls" : "stop"),
      ...(response.reasoning ? { reasoning: response.reasoning } : {}),
    };
  }

  private failure(error: NonNullable<ScriptedResponse["error"]>, streamed = ""): ProviderError {
    const { kind, message, status } = error;
    return new ProviderError(message, { provider: this.name, kind, status, partialOutput: streamed.length > 0 });
  }
}
