import type { Env, ProviderConfig } from "./config.js";
import type { LLMProvider } from "./types.js";

/** Builds an adapter; each SDK is imported only when its provider is used. */
export async function createProvider(config: ProviderConfig, env: Env): Promise<LLMProvider> {
  if (config.name === "copilot") {
    const { CopilotProvider } = await import("./copilot/index.js");
    return new CopilotProvider(config, { env });
  }
  const { OpenAICompatibleProvider } = await import("./openai-compatible/index.js");
  return new OpenAICompatibleProvider(config);
}
