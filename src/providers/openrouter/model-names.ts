/** The vendor OpenRouter files a model under, by the start of the name other providers give it. */
const VENDORS: Array<[pattern: RegExp, vendor: string]> = [
  [/^claude-/, "anthropic"],
  [/^(?:gpt-|o[134](?:-|$)|codex-)/, "openai"],
  [/^(?:gemini-|gemma-)/, "google"],
  [/^(?:mistral-|codestral|devstral|magistral|pixtral|ministral|mixtral)/, "mistralai"],
  [/^llama-/, "meta-llama"],
  [/^deepseek-/, "deepseek"],
  [/^qwen/, "qwen"],
  [/^kimi-/, "moonshotai"],
  [/^grok-/, "x-ai"],
];

/**
 * A model name as OpenRouter writes it: `anthropic/claude-sonnet-4.5` stays as it is, and a short name the other
 * providers use gets its vendor (`gpt-5.1` → `openai/gpt-5.1`); Claude's dashed versions and dates become OpenRouter's
 * dotted ones (`claude-sonnet-4-5-20250929` → `anthropic/claude-sonnet-4.5`). A name Marvin cannot place is kept.
 */
export function openRouterModelName(model: string): string {
  const name = model.trim();
  if (name.includes("/")) return name;
  const vendor = VENDORS.find(([pattern]) => pattern.test(name))?.[1];
  if (!vendor) return name;
  const dotted = vendor === "anthropic" ? name.replace(/-\d{8}$/, "").replace(/-(\d)-(\d)(?=-|$)/, "-$1.$2") : name;
  return `${vendor}/${dotted}`;
}
