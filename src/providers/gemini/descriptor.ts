import { hostedProvider } from "../chat-completions/hosted.js";

/** Google Gemini through its OpenAI-compatible endpoint. */
export const gemini = hostedProvider({
  name: "gemini",
  icon: "💎",
  defaults: {
    model: "gemini-3-pro-preview",
    baseUrl: "https://generativelanguage.googleapis.com/v1beta/openai/",
    modelEnv: "GEMINI_MODEL",
    keyEnv: "GEMINI_API_KEY",
    keyFile: "GEMINI_API_KEY",
  },
  setupHint: "LLM_PROVIDER=gemini with GEMINI_API_KEY (or a key in ~/.ssh/GEMINI_API_KEY)",
});
