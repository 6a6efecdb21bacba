import type { ChatRequest, LLMResponse, ProviderEvent } from "./types.js";

/**
 * Drives a provider's event stream with a request's callbacks: resolves with the `done` response, rejects with
 * the `error` event's ProviderError. Lets an adapter written as a stream serve the callback-style `chat`.
 */
export async function chatFromStream(events: AsyncIterable<ProviderEvent>, request: ChatRequest): Promise<LLMResponse> {
  for await (const event of events) {
    switch (event.type) {
      case "text_delta":
        request.onDelta(event.text);
        break;
      case "reasoning_delta":
        request.onReasoningDelta?.(event.text);
        break;
      case "tool_call_start":
        request.onToolCallStart?.(event.call);
        break;
      case "notice":
        request.onNotice?.(event.text);
        break;
      case "done":
        return event.response;
      case "error":
        throw event.error;
    }
  }
  throw new Error("The provider's stream ended without a done or error event.");
}
