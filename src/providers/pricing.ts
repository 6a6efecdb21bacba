/**
 * USD per million tokens: input, input read from the provider's prompt cache, input written to it, output.
 * Local models cost nothing; where a provider gives no discount for cached input, `cached` is the input price,
 * and where it bills no extra for writing its cache (all but Anthropic), `cacheWrite` is absent.
 */
export interface Price {
  input: number;
  cached: number;
  /** Anthropic's 5-minute cache writes (the `ephemeral` breakpoints Marvin sets): 1.25 × input. */
  cacheWrite?: number;
  output: number;
}

/** Claude prices (platform.claude.com pricing, November 2026); dotted (Copilot) and dashed (API) names alike. */
const CLAUDE_PRICES: Array<[pattern: RegExp, price: Price]> = [
  [/claude-(fable|mythos)-5[.-]1/, { input: 10, cached: 0.25, cacheWrite: 12.5, output: 50 }],
  [/claude-(fable|mythos)-5/, { input: 10, cached: 1, cacheWrite: 12.5, output: 50 }],
  [/claude-opus-5[.-]5/, { input: 4, cached: 0.2, cacheWrite: 5, output: 20 }],
  // Opus 4 and 4.1 (with or without a date), before the price cut of Opus 4.5.
  [/claude-opus-4(?:[.-][01])?(?:-\d{8})?(?![.-]?\d)/, { input: 15, cached: 1.5, cacheWrite: 18.75, output: 75 }],
  [/claude-opus-[45]/, { input: 5, cached: 0.5, cacheWrite: 6.25, output: 25 }],
  [/claude-sonnet-5[.-]5/, { input: 2, cached: 0.1, cacheWrite: 2.5, output: 10 }],
  [/claude-sonnet-5/, { input: 2, cached: 0.2, cacheWrite: 2.5, output: 10 }],
  [/claude-sonnet-4|claude-3-[57]-sonnet/, { input: 3, cached: 0.3, cacheWrite: 3.75, output: 15 }],
  // Haiku 5.5 at its rate for prompts up to 100,000 tokens (longer ones cost five times as much).
  [/claude-haiku-5[.-]5/, { input: 0.1, cached: 0.01, cacheWrite: 0.125, output: 0.5 }],
  [/claude-haiku-4/, { input: 1, cached: 0.1, cacheWrite: 1.25, output: 5 }],
];

const PRICES: Array<[pattern: RegExp, price: Price]> = [
  ...CLAUDE_PRICES,
  [/gpt-5(\.\d)?-codex/, { input: 1.25, cached: 0.125, output: 10 }],
  [/gpt-5\.2/, { input: 1.75, cached: 0.175, output: 14 }],
  [/gpt-5-nano/, { input: 0.05, cached: 0.005, output: 0.4 }],
  [/gpt-5-mini/, { input: 0.25, cached: 0.025, output: 2 }],
  [/gpt-5/, { input: 1.25, cached: 0.125, output: 10 }],
  [/gpt-4\.1-nano/, { input: 0.1, cached: 0.025, output: 0.4 }],
  [/gpt-4\.1-mini/, { input: 0.4, cached: 0.1, output: 1.6 }],
  [/gpt-4\.1/, { input: 2, cached: 0.5, output: 8 }],
  [/gpt-4o-mini/, { input: 0.15, cached: 0.075, output: 0.6 }],
  [/gpt-4o/, { input: 2.5, cached: 1.25, output: 10 }],
  // Gemini: prompts up to 200k tokens (longer ones cost more on Pro); cached input is a tenth of the input price.
  [/gemini-3(\.\d)?-pro/, { input: 2, cached: 0.2, output: 12 }],
  [/gemini-3\.5-flash/, { input: 1.5, cached: 0.15, output: 9 }],
  [/gemini-3(\.\d)?-flash-lite/, { input: 0.25, cached: 0.025, output: 1.5 }],
  [/gemini-3(\.\d)?-flash/, { input: 0.5, cached: 0.05, output: 3 }],
  [/gemini-2\.5-pro/, { input: 1.25, cached: 0.125, output: 10 }],
  [/gemini-2\.5-flash-lite/, { input: 0.1, cached: 0.01, output: 0.4 }],
  [/gemini-2\.5-flash/, { input: 0.3, cached: 0.03, output: 2.5 }],
  // Mistral (La Plateforme): no discount for cached input. Large 2 (2407, 2411) before the price cut of Large 3.
  [/mistral-large-24(?:07|11)/, { input: 2, cached: 2, output: 6 }],
  [/mistral-large/, { input: 0.5, cached: 0.5, output: 1.5 }],
  [/(?:mistral|devstral)-medium/, { input: 0.4, cached: 0.4, output: 2 }],
  [/(?:mistral|devstral)-small/, { input: 0.1, cached: 0.1, output: 0.3 }],
  [/magistral-medium/, { input: 2, cached: 2, output: 5 }],
  [/magistral-small/, { input: 0.5, cached: 0.5, output: 1.5 }],
  [/codestral/, { input: 0.3, cached: 0.3, output: 0.9 }],
  [/pixtral-large/, { input: 2, cached: 2, output: 6 }],
  [/ministral-14b/, { input: 0.2, cached: 0.2, output: 0.2 }],
  [/ministral-8b/, { input: 0.15, cached: 0.15, output: 0.15 }],
  [/ministral-3b/, { input: 0.1, cached: 0.1, output: 0.1 }],
  [/llama-3\.3-70b/, { input: 0.59, cached: 0.59, output: 0.79 }],
  [/llama-3\.1-8b/, { input: 0.05, cached: 0.05, output: 0.08 }],
  [/qwen3-32b/, { input: 0.1, cached: 0.1, output: 0.3 }],
  [/kimi-k2/, { input: 0.6, cached: 0.3, output: 2.5 }],
  [/deepseek-reasoner/, { input: 0.55, cached: 0.14, output: 2.19 }],
  [/deepseek-chat/, { input: 0.27, cached: 0.07, output: 1.1 }],
];

interface CallTokens {
  input: number;
  output: number;
  /** Of the input, how much the provider read from its prompt cache. */
  cached?: number;
  /** Of the input, how much the provider wrote to its prompt cache. */
  cacheWrite?: number;
}

/**
 * What a model costs per million tokens: nothing for local (ollama) models and the ChatGPT plan's (codex), which
 * the plan covers; undefined when Marvin does not know.
 */
export function modelPrice(provider: string, model: string): Price | undefined {
  if (provider === "ollama" || provider === "codex") return { input: 0, cached: 0, output: 0 };
  return PRICES.find(([pattern]) => pattern.test(model))?.[1];
}

/**
 * Estimated cost of one call, cached input and cache writes at their own rates; 0 for local (ollama) and unknown
 * models, and for the ChatGPT plan's (codex), which the plan covers.
 */
export function estimateCost(provider: string, model: string, tokens: CallTokens): number {
  const price = modelPrice(provider, model);
  if (!price) return 0;
  const cached = Math.min(tokens.cached ?? 0, tokens.input);
  const written = Math.min(tokens.cacheWrite ?? 0, tokens.input - cached);
  const fresh = tokens.input - cached - written;
  const input = fresh * price.input + cached * price.cached + written * (price.cacheWrite ?? price.input);
  return (input + tokens.output * price.output) / 1_000_000;
}
