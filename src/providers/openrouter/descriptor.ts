import { chatCompletionsIn } from "../chat-completions/create.js";
import { hostedProvider } from "../chat-completions/hosted.js";
import { openRouterModelName } from "./model-names.js";

/** OpenRouter: any model of any vendor through one key, over its chat completions. */
export const openrouter = hostedProvider({
  name: "openrouter",
  icon: "🔀",
  defaults: {
    model: "anthropic/claude-sonnet-4.5",
    baseUrl: "https://openrouter.ai/api/v1",
    modelEnv: "OPENROUTER_MODEL",
    urlEnv: "OPENROUTER_BASE_URL",
    keyEnv: "OPENROUTER_API_KEY",
    keyFile: "OPENROUTER_API_KEY",
  },
  modelName: openRouterModelName,
  setupHint: "LLM_PROVIDER=openrouter with OPENROUTER_API_KEY (or a key in ~/.ssh/OPENROUTER_API_KEY)",
  create: chatCompletionsIn(async () => (await import("./dialect.js")).openRouterDialect),
});
