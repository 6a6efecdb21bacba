import type { ProviderConfig } from "../descriptor.js";
import type { LLMProvider } from "../types.js";

/** The Chat Completions adapter, loaded only when a provider needs it. */
export async function createChatCompletions(config: ProviderConfig): Promise<LLMProvider> {
  const { ChatCompletionsProvider } = await import("./index.js");
  return new ChatCompletionsProvider(config);
}
