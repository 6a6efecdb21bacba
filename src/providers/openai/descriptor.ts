import { normalizeBaseUrl } from "../base-url.js";
import { hostedProvider } from "../chat-completions/hosted.js";

/** OpenAI's own API, through its Responses API: reasoning summaries, encrypted reasoning, prompt-cache keys. */
export const openai = hostedProvider({
  name: "openai",
  icon: "🧠",
  defaults: {
    model: "gpt-5.1",
    baseUrl: "https://api.openai.com/v1",
    urlEnv: "OPENAI_BASE_URL",
    modelEnv: "OPENAI_MODEL",
    keyEnv: "OPENAI_API_KEY",
    keyFile: "OPENAI_API_KEY",
  },
  // Like OpenAI's SDKs, the base URL ends in /v1; a full …/responses endpoint is accepted too.
  baseUrl: (url) => normalizeBaseUrl(url).replace(/\/responses$/, ""),
  setupHint: "LLM_PROVIDER=openai with OPENAI_API_KEY (or a key in ~/.ssh/OPENAI_API_KEY)",
  async create(config) {
    const { ResponsesProvider } = await import("./index.js");
    return new ResponsesProvider(config);
  },
});
