import { chatCompletionsIn } from "../chat-completions/create.js";
import { hostedProvider } from "../chat-completions/hosted.js";

/** Mistral's API (La Plateforme), over its chat completions. */
export const mistral = hostedProvider({
  name: "mistral",
  icon: "🌀",
  defaults: {
    model: "mistral-large-latest",
    baseUrl: "https://api.mistral.ai/v1",
    modelEnv: "MISTRAL_MODEL",
    urlEnv: "MISTRAL_BASE_URL",
    keyEnv: "MISTRAL_API_KEY",
    keyFile: "MISTRAL_API_KEY",
  },
  setupHint: "LLM_PROVIDER=mistral with MISTRAL_API_KEY (or a key in ~/.ssh/MISTRAL_API_KEY)",
  create: chatCompletionsIn(async () => (await import("./dialect.js")).mistralDialect),
});
