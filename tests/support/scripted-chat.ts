import { ProviderError } from "../../src/providers/provider-error.js";
import type {
  ChatRequest,
  FinishReason,
  LLMProvider,
  LLMResponse,
  Message,
  ProviderErrorKind,
  ProviderEvent,
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
  /** After each call is announced (tool_call_start), wait for this before completing it. */
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
 * response, streamed as events as a provider streams them, ending with the answer or the scripted
 * ProviderError. Not a mock — it implements the {@link LLMProvider} contract (and so the
 * `ChatStream` type through `stream`), like the AI SDK's MockLanguageModel; use it where HTTP and SSE
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

  /** Bound, so `scripted.stream` can be passed on as a ChatStream. */
  readonly stream = (request: ChatRequest): AsyncGenerator<ProviderEvent> => {
    const recorded: RecordedChat = {
      messages: structuredClone([...request.messages]),
      tools: [...request.tools],
      standalone: request.standalone ?? false,
    };
    this.requests.push(recorded);
    const index = this.requests.length - 1;
    const entry = this.script[index];
    return this.replay(
      entry === undefined ? undefined : typeof entry === "function" ? entry(recorded, index) : entry,
      index,
      request,
    );
  };

  async destroy(): Promise<void> {}

  private async *replay(
    response: ScriptedResponse | undefined,
    index: number,
    request: ChatRequest,
  ): AsyncGenerator<ProviderEvent> {
    if (response === undefined) {
      yield this.failure({ kind: "server", message: `test script exhausted at ${index + 1}` });
      return;
    }
    const size = response.chunkSize ?? 5;
    let streamed = "";
    const aborted = () => request.signal?.aborted;
    for (const part of pieces(response.reasoning ?? "", size)) yield { type: "reasoning_delta", text: part };
    for (const part of pieces(response.text ?? "", size)) {
      if (aborted()) break;
      yield { type: "text_delta", text: part };
      streamed += part;
      if (response.delayMs) await sleep(response.delayMs, request.signal).catch(() => undefined);
    }
    if (aborted()) {
      yield this.failure({ kind: "aborted", message: "Request cancelled." }, streamed);
      return;
    }
    const toolCalls: ToolCall[] = [];
    for (const [position, call] of (response.toolCalls ?? []).entries()) {
      const id = call.id ?? `call_${index + 1}_${position}`;
      yield { type: "tool_call_start", call: { id, name: call.name, index: position } };
      if (response.holdArguments) await response.holdArguments;
      const args = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
      toolCalls.push({ id, type: "function", function: { name: call.name, arguments: args } });
    }
    if (response.error) {
      yield this.failure(response.error, streamed);
      return;
    }
    const usage = response.usage && {
      promptTokens: response.usage.prompt,
      completionTokens: response.usage.completion,
      ...(response.usage.cached === undefined ? {} : { cachedTokens: response.usage.cached }),
    };
    const answer: LLMResponse = {
      content: streamed,
      toolCalls,
      ...(usage ? { usage } : {}),
      model: response.model ?? this.model,
      finishReason: response.finishReason ?? (toolCalls.length ? "tool_calls" : "stop"),
      ...(response.reasoning ? { reasoning: response.reasoning } : {}),
    };
    yield { type: "done", response: answer };
  }

  private failure(error: NonNullable<ScriptedResponse["error"]>, streamed = ""): ProviderEvent {
    const { kind, message, status } = error;
    const partialOutput = streamed.length > 0;
    return { type: "error", error: new ProviderError(message, { provider: this.name, kind, status, partialOutput }) };
  }
}
