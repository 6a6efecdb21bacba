import type { AssistantUsageData, SessionEvent } from "@github/copilot-sdk";
import type { ProviderError } from "../provider-error.js";
import type { ChatRequest, LLMResponse, TokenUsage } from "../types.js";
import { abortedError, sessionErrorToProviderError } from "./errors.js";

/**
 * One `chat()` call: receives the session's events (routed by the provider) and settles
 * with the whole response once the session goes idle.
 */
export class CopilotTurn {
  readonly done: Promise<LLMResponse>;
  private resolveDone!: (response: LLMResponse) => void;
  private rejectDone!: (error: ProviderError) => void;
  private settled = false;
  private content = "";
  private reasoning = "";
  private currentMessageId: string | undefined;
  private readonly streamedMessageIds = new Set<string>();
  private readonly announcedToolCalls = new Set<string>();
  private usage: TokenUsage | undefined;
  private model: string;
  private sessionError: ProviderError | undefined;

  constructor(
    private readonly request: ChatRequest,
    model: string,
  ) {
    this.model = model;
    this.done = new Promise<LLMResponse>((resolve, reject) => {
      this.resolveDone = resolve;
      this.rejectDone = reject;
    });
  }

  get runTools(): ChatRequest["runTools"] {
    return this.request.runTools;
  }

  get hasOutput(): boolean {
    return this.content.length > 0;
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
        this.reasoning += event.data.deltaContent;
        this.request.onReasoningDelta?.(event.data.deltaContent);
        return;
      case "assistant.tool_call_delta":
        return this.announceToolCall(event.data.toolCallId, event.data.toolName);
      case "session.error":
        this.sessionError ??= sessionErrorToProviderError(event.data, this.hasOutput);
        return;
      case "session.idle":
        return this.finish(event.data.aborted === true);
    }
  }

  fail(error: ProviderError): void {
    if (this.settled) return;
    this.settled = true;
    this.rejectDone(error);
  }

  private appendText(messageId: string, text: string): void {
    if (!text) return;
    if (messageId !== this.currentMessageId) {
      // Text from the model calls before and after a tool round are separate paragraphs.
      if (this.content) this.emit("\n\n");
      this.currentMessageId = messageId;
      this.streamedMessageIds.add(messageId);
    }
    this.emit(text);
  }

  /** Reports a tool call once, as soon as the stream names it. */
  private announceToolCall(id: string, name: string | undefined): void {
    if (!name || this.announcedToolCalls.has(id)) return;
    this.announcedToolCalls.add(id);
    this.request.onToolCallStart?.({ id, name, index: this.announcedToolCalls.size - 1 });
  }

  /** Final message events repeat streamed text; use them only when nothing was streamed. */
  private completeMessage(messageId: string, text: string): void {
    if (!this.streamedMessageIds.has(messageId)) this.appendText(messageId, text);
  }

  private emit(text: string): void {
    this.content += text;
    this.request.onDelta(text);
  }

  /** The SDK reports one usage event per model call; a turn with tool rounds has several. */
  private addUsage(data: AssistantUsageData): void {
    if (data.inputTokens === undefined && data.outputTokens === undefined) return;
    this.usage = {
      promptTokens: (this.usage?.promptTokens ?? 0) + (data.inputTokens ?? 0),
      completionTokens: (this.usage?.completionTokens ?? 0) + (data.outputTokens ?? 0),
      cachedTokens: (this.usage?.cachedTokens ?? 0) + (data.cacheReadTokens ?? 0),
    };
    if (data.model) this.model = data.model;
  }

  private finish(aborted: boolean): void {
    if (this.sessionError) return this.fail(this.sessionError);
    if (aborted) return this.fail(abortedError(this.hasOutput));
    this.settled = true;
    this.resolveDone({
      content: this.content,
      toolCalls: [],
      usage: this.usage,
      model: this.model,
      finishReason: "stop",
      ...(this.reasoning ? { reasoning: this.reasoning } : {}),
    });
  }
}
