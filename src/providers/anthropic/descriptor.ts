import { normalizeBaseUrl } from "../base-url.js";
import { hostedProvider } from "../chat-completions/hosted.js";
import type { ProviderDescriptor } from "../descriptor.js";

/** Anthropic's Messages API, natively: cache breakpoints, extended thinking and its signatures. */
export const anthropic: ProviderDescriptor<"anthropic"> = hostedProvider({
  name: "anthropic",
  icon: "🔶",
  defaults: {
    model: "claude-sonnet-5-5",
    baseUrl: "https://api.anthropic.com",
    modelEnv: "ANTHROPIC_MODEL",
    urlEnv: "ANTHROPIC_BASE_URL",
    keyEnv: "ANTHROPIC_API_KEY",
    keyFile: "ANTHROPIC_API_KEY",
  },
  // Like Anthropic's SDKs, the base URL is the server root; a full …/v1/messages endpoint is accepted too.
  baseUrl: (url) => normalizeBaseUrl(url).replace(/\/v1\/messages$/, ""),
  setupHint: "LLM_PROVIDER=anthropic with ANTHROPIC_API_KEY (or a key in ~/.ssh/ANTHROPIC_API_KEY)",
  listModels: async (config) => (await import("./models.js")).listAnthropicModels(config),
  async create(config) {
    const { AnthropicProvider } = await import("./index.js");
    return new AnthropicProvider(config);
  },
});
