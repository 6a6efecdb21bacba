import { hostedProvider } from "../chat-completions/hosted.js";

/** Groq's OpenAI-compatible API. */
export const groq = hostedProvider({
  name: "groq",
  icon: "⚡",
  defaults: {
    model: "llama-3.3-70b-versatile",
    baseUrl: "https://api.groq.com/openai/v1",
    modelEnv: "GROQ_MODEL",
    urlEnv: "GROQ_BASE_URL",
    keyEnv: "GROQ_API_KEY",
    keyFile: "GROQ_API_KEY",
  },
  setupHint: "LLM_PROVIDER=groq with GROQ_API_KEY (or a key in ~/.ssh/GROQ_API_KEY)",
});
