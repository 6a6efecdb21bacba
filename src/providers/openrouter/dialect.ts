import type { CompletionsDialect } from "../chat-completions/dialect.js";

/**
 * OpenRouter's additions to chat completions: the app attribution headers, usage accounting (`usage.cost` in the
 * last chunk, what the request was billed), its unified `reasoning` parameter, and advice on its error answers.
 */
export const openRouterDialect: CompletionsDialect = {
  headers: { "HTTP-Referer": "https://www.npmjs.com/package/marvin-assistant", "X-Title": "Marvin" },
  extraFields: () => ({ usage: { include: true } }),
  reasoning: (level) => ({ reasoning: { effort: level === "off" ? "none" : level } }),
  errorAdvice(status, error) {
    if (status === 402) {
      return (
        "The OpenRouter account has no credits for this request: add some at https://openrouter.ai/settings/credits " +
        "or pick a free model (its name ends in :free)."
      );
    }
    const said = error?.message ?? "";
    if (/not a valid model id|no endpoints found|model .*not (?:found|exist)/i.test(said)) {
      return (
        "OPENROUTER_MODEL takes OpenRouter's model names, such as anthropic/claude-sonnet-4.5 " +
        "(see https://openrouter.ai/models)."
      );
    }
    return undefined;
  },
};
