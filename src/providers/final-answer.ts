import type { LLMResponse, ProviderEvent } from "./types.js";

/**
 * The answer a stream ends with, for a caller that shows nothing while it streams (a summary): resolves with the
 * `done` response, rejects with the `error` event's failure.
 */
export async function finalAnswer(events: AsyncIterable<ProviderEvent>): Promise<LLMResponse> {
  for await (const event of events) {
    if (event.type === "done") return event.response;
    if (event.type === "error") throw event.error;
  }
  throw new Error("The provider's stream ended without an answer or an error.");
}
