import { hostedProvider } from "../chat-completions/hosted.js";

/** OpenAI's own API. */
export const openai = hostedProvider({
  name: "openai",
  icon: "🧠",
  defaults: { model: "gpt-5.1", baseUrl: "https://api.openai.com/v1", keyEnv: "OPENAI_API_KEY" },
  setupHint: "LLM_PROVIDER=openai with OPENAI_API_KEY",
});
