/**
 * USD per million tokens: input, input read from the provider's prompt cache, output. Local models cost
 * nothing; where a provider gives no discount for cached input, `cached` is the input price.
 */
interface Price {
  input: number;
  cached: number;
  output: number;
}

const PRICES: Array<[pattern: RegExp, price: Price]> = [
  [/claude-opus-4/, { input: 5, cached: 0.5, output: 25 }],
  [/claude-sonnet-4/, { input: 3, cached: 0.3, output: 15 }],
  [/claude-haiku-4/, { input: 1, cached: 0.1, output: 5 }],
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
}

/** Estimated cost of one call, cached input at its own rate; 0 for local (ollama) and unknown models. */
export function estimateCost(provider: string, model: string, tokens: CallTokens): number {
  if (provider === "ollama") return 0;
  const price = PRICES.find(([pattern]) => pattern.test(model))?.[1];
  if (!price) return 0;
  const cached = Math.min(tokens.cached ?? 0, tokens.input);
  return ((tokens.input - cached) * price.input + cached * price.cached + tokens.output * price.output) / 1_000_000;
}
