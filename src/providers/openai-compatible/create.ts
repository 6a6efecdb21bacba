import type { ProviderConfig } from "../config.js";
import type { LLMProvider } from "../types.js";

/** The OpenAI-compatible adapter, loaded (with the openai SDK) only when a provider needs it. */
export async function createOpenAICompatible(config: ProviderConfig): Promise<LLMProvider> {
  const { OpenAICompatibleProvider } = await import("./index.js");
  return new OpenAICompatibleProvider(config);
}
