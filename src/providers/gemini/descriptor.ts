import { normalizeBaseUrl } from "../base-url.js";
import { apiKeyProblem, type ProviderDescriptor } from "../descriptor.js";

/** Google Gemini through its own API (streamGenerateContent); `openai-compat` reaches its OpenAI-compatible one. */
export const gemini: ProviderDescriptor<"gemini"> = {
  name: "gemini",
  icon: "💎",
  defaults: {
    model: "gemini-3-pro-preview",
    baseUrl: "https://generativelanguage.googleapis.com",
    modelEnv: "GEMINI_MODEL",
    urlEnv: "GEMINI_BASE_URL",
    keyEnv: "GEMINI_API_KEY",
    keyFile: "GEMINI_API_KEY",
  },
  // The API version is Marvin's to add: a URL ending in /v1beta is taken as the server root.
  baseUrl: (url) => normalizeBaseUrl(url).replace(/\/v1beta$/, ""),
  setupHint: "LLM_PROVIDER=gemini with GEMINI_API_KEY (or a key in ~/.ssh/GEMINI_API_KEY)",
  autoDetect: { by: "setting", evidence: (config) => (config.apiKey ? "GEMINI_API_KEY is set" : undefined) },
  missingConfiguration: apiKeyProblem,
  listModels: async (config) => (await import("./models.js")).listGeminiModels(config),
  async create(config) {
    const { GeminiProvider } = await import("./adapter.js");
    return new GeminiProvider(config);
  },
};
