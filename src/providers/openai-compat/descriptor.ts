import { createChatCompletions } from "../chat-completions/create.js";
import type { ProviderDescriptor } from "../descriptor.js";

/** Any OpenAI-compatible endpoint: OpenRouter by default, or a local vLLM, LM Studio, llama.cpp. */
export const openaiCompat: ProviderDescriptor<"openai-compat"> = {
  name: "openai-compat",
  icon: "🔌",
  defaults: {
    model: "qwen/qwen3-32b",
    baseUrl: "https://openrouter.ai/api/v1/chat/completions",
    modelEnv: "OPENAI_COMPAT_MODEL",
    urlEnv: "OPENAI_COMPAT_URL",
    keyEnv: "OPENAI_COMPAT_API_KEY",
    keyFile: "OPENAI_COMPAT_API_KEY",
  },
  setupHint: "LLM_PROVIDER=openai-compat with OPENAI_COMPAT_URL and OPENAI_COMPAT_API_KEY",
  autoDetect: {
    by: "setting",
    evidence: (config, env) => {
      if (config.apiKey) return "OPENAI_COMPAT_API_KEY is set";
      return env.OPENAI_COMPAT_URL?.trim() ? "OPENAI_COMPAT_URL is set" : undefined;
    },
  },
  missingConfiguration(config, env) {
    // Local OpenAI-compatible servers (vLLM, LM Studio, llama.cpp) need no key.
    if (config.apiKey || env.OPENAI_COMPAT_URL?.trim()) return undefined;
    return "openai-compat needs OPENAI_COMPAT_API_KEY (or OPENAI_COMPAT_URL pointing at a server that needs no key)";
  },
  create: createChatCompletions,
  listModels: async (config) => (await import("../models/openai-models.js")).listOpenAiModels(config),
};
