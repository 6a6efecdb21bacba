import type { AssistantUsageData, SessionEvent, ToolResultObject } from "@github/copilot-sdk";
import type { ProviderError } from "../provider-error.js";
import type { LLMResponse, ProviderEvent, TokenUsage, ToolCall } from "../types.js";
import { abortedError, sessionErrorToProviderError } from "./errors.js";
import { EventChannel } from "./event-channel.js";

/** What the SDK's tool handler hands back to the runtime. */
export type ToolResult = string | ToolResultObject;

/** A tool call the runtime waits on, and how to hand it its result. */
interface WaitingCall {
  call: ToolCall;
  answer: (result: ToolResult) => void;
}

function refusal(text: string): ToolResultObject {
  return { textResultForLlm: text, resultType: "failure" };
}

/**
 * One turn of a Copilot session, from the prompt to `session.idle`: it receives the session's events (routed by
 * the provider) and reports them as rounds of {@link ProviderEvent}s. The runtime runs its own tool loop and asks
 * for each call through the tool handler ({@link requestTool}); the calls asked for together end a round with
 * `done` and finish reason `tool_calls`, and the turn waits until {@link resume} brings their results, which
 * go back to the runtime. The last round ends with the answer.
 */
export class CopilotTurn {
  private round = new EventChannel();
  /** Rounds begun whose events nobody reads yet, oldest first. */
  private readonly unread: EventChannel[] = [this.round];
  private roundText = "";
  private roundReasoning = "";
  /** Usage reported since the last round ended (the runtime reports one per model call). */
  private usage: TokenUsage | undefined;
  private textSoFar = "";
  private currentMessageId: string | undefined;
  private readonly streamedMessageIds = new Set<string>();
  private readonly announcedToolCalls = new Set<string>();
  private announcedThisRound = 0;
  /** Asked for by the runtime, not yet reported. */
  private asked: WaitingCall[] = [];
  /** Reported in a round's `done`, waiting for their results. */
  private reported: WaitingCall[] = [];
  private roundEnding = false;
  private settled = false;

  constructor(
    private model: string,
    /** False when the request offers no tools: the runtime's calls are then refused at once. */
    private toolsOffered: boolean,
  ) {}

  /** The events of the oldest round not read yet (the current one, unless it ended unread). */
  events(): AsyncIterable<ProviderEvent> {
    return (this.unread.shift() ?? this.round).events();
  }

  get hasOutput(): boolean {
    return this.textSoFar.length > 0;
  }

  /** The ids of the calls the last round reported, while their results are awaited. */
  get awaitedCallIds(): string[] {
    return this.settled ? [] : this.reported.map(({ call }) => call.id);
  }

  handle(event: SessionEvent): void {
    if (this.settled) return;
    if (event.type === "assistant.usage") return this.addUsage(event.data);
    // Sub-agent text belongs to the sub-agent's own transcript, not to Marvin's answer.
    if (event.agentId) return;
    switch (event.type) {
      case "assistant.message_delta":
        return this.appendText(event.data.messageId, event.data.deltaContent);
      case "assistant.message":
        for (const call of event.data.toolRequests ?? []) this.announceToolCall(call.toolCallId, call.name);
        return this.completeMessage(event.data.messageId, event.data.content);
      case "assistant.reasoning_delta":
        this.roundReasoning += event.data.deltaContent;
        this.round.push({ type: "reasoning_delta", text: event.data.deltaContent });
        return;
      case "assistant.tool_call_delta":
        return this.announceToolCall(event.data.toolCallId, event.data.toolName);
      case "session.error":
        return this.fail(sessionErrorToProviderError(event.data, this.hasOutput));
      case "session.idle":
        return event.data.aborted === true ? this.fail(abortedError(this.hasOutput)) : this.answer();
    }
  }

  /**
   * The runtime asks to run a tool: the call joins the round, which ends once the calls asked for together are
   * in. Resolves with the result {@link resume} brings.
   */
  requestTool(id: string, name: string, input: unknown): Promise<ToolResult> {
    if (this.settled) return Promise.resolve(refusal(`Tool ${name} was not run: the request has ended.`));
    if (!this.toolsOffered) {
      return Promise.resolve(refusal(`Tool ${name} was not run: no tools may run now. Answer with what you have.`));
    }
    this.announceToolCall(id, name);
    // The transcript keeps the arguments as text; the loop runs the tool with `input` as it came.
    const value = input ?? {};
    const call: ToolCall = { id, type: "function", function: { name, arguments: JSON.stringify(value) }, input: value };
    return new Promise((answer) => {
      this.asked.push({ call, answer });
      if (this.roundEnding) return;
      this.roundEnding = true;
      // Calls of one model answer arrive one message after another: they form one round.
      setImmediate(() => this.endRound());
    });
  }

  /**
   * Starts the next round: hands the reported calls their results (by call id, from the next request). False when
   * `results` lacks one of them: that request does not continue this turn.
   */
  resume(results: ReadonlyMap<string, ToolResult>, toolsOffered: boolean): boolean {
    if (this.reported.length === 0 || !this.reported.every(({ call }) => results.has(call.id))) return false;
    this.toolsOffered = toolsOffered;
    const answered = this.reported;
    this.reported = [];
    for (const { call, answer } of answered) answer(results.get(call.id)!);
    return true;
  }

  /** Ends the turn with `error`; calls still waiting are told they were not run. */
  fail(error: ProviderError): void {
    if (this.settled) return;
    this.settled = true;
    this.round.push({ type: "error", error });
    for (const { call, answer } of [...this.asked, ...this.reported]) {
      answer(refusal(`Tool ${call.function.name} was not run: ${error.message}`));
    }
    this.asked = [];
    this.reported = [];
  }

  private endRound(): void {
    this.roundEnding = false;
    if (this.settled || this.asked.length === 0) return;
    this.reported.push(...this.asked);
    this.asked = [];
    // Usage the runtime has not reported yet comes with a later round.
    const usage = this.usage ?? { promptTokens: 0, completionTokens: 0 };
    this.finishRound({ ...this.response(usage), toolCalls: this.reported.map(({ call }) => call) });
  }

  private answer(): void {
    this.settled = true;
    this.finishRound(this.response(this.usage));
  }

  private response(usage: TokenUsage | undefined): LLMResponse {
    return {
      content: this.roundText,
      toolCalls: [],
      ...(usage ? { usage } : {}),
      model: this.model,
      finishReason: "stop",
      ...(this.roundReasoning ? { reasoning: this.roundReasoning } : {}),
    };
  }

  /** Ends this round with `response`; what the runtime sends from now on belongs to the next one. */
  private finishRound(response: LLMResponse): void {
    const finishReason = response.toolCalls.length > 0 ? "tool_calls" : "stop";
    this.round.push({ type: "done", response: { ...response, finishReason } });
    this.round = new EventChannel();
    this.unread.push(this.round);
    this.roundText = "";
    this.roundReasoning = "";
    this.usage = undefined;
    this.announcedThisRound = 0;
  }

  private appendText(messageId: string, text: string): void {
    if (!text) return;
    if (messageId !== this.currentMessageId) {
      // Text from the model calls before and after a tool round are separate paragraphs.
      if (this.textSoFar) this.emit("\n\n");
      this.currentMessageId = messageId;
      this.streamedMessageIds.add(messageId);
    }
    this.emit(text);
  }

  /** Reports a tool call once, as soon as the stream names it. */
  private announceToolCall(id: string, name: string | undefined): void {
    if (!name || this.announcedToolCalls.has(id)) return;
    this.announcedToolCalls.add(id);
    this.round.push({ type: "tool_call_start", call: { id, name, index: this.announcedThisRound++ } });
  }

  /** Final message events repeat streamed text; use them only when nothing was streamed. */
  private completeMessage(messageId: string, text: string): void {
    if (!this.streamedMessageIds.has(messageId)) this.appendText(messageId, text);
  }

  private emit(text: string): void {
    this.textSoFar += text;
    this.roundText += text;
    this.round.push({ type: "text_delta", text });
  }

  private addUsage(data: AssistantUsageData): void {
    if (data.inputTokens === undefined && data.outputTokens === undefined) return;
    this.usage = {
      promptTokens: (this.usage?.promptTokens ?? 0) + (data.inputTokens ?? 0),
      completionTokens: (this.usage?.completionTokens ?? 0) + (data.outputTokens ?? 0),
      cachedTokens: (this.usage?.cachedTokens ?? 0) + (data.cacheReadTokens ?? 0),
    };
    if (data.model) this.model = data.model;
  }
}
