import type { ProviderConfig } from "../descriptor.js";
import type { LLMProvider } from "../types.js";
import type { CompletionsDialect } from "./dialect.js";

/** The Chat Completions adapter, loaded only when a provider needs it. */
export async function createChatCompletions(config: ProviderConfig): Promise<LLMProvider> {
  const { ChatCompletionsProvider } = await import("./index.js");
  return new ChatCompletionsProvider(config);
}

/** The `create` of a service with a dialect of its own, loaded (with the adapter) only when it is used. */
export function chatCompletionsIn(
  loadDialect: () => Promise<CompletionsDialect>,
): (config: ProviderConfig) => Promise<LLMProvider> {
  return async (config) => {
    const [{ ChatCompletionsProvider }, dialect] = await Promise.all([import("./index.js"), loadDialect()]);
    return new ChatCompletionsProvider(config, dialect);
  };
}
