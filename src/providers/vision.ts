import type { Env } from "../shared/env.js";
import type { LLMProvider, ProviderName } from "./types.js";

/** Models of OpenAI's family (OpenAI, Copilot, OpenAI-compatible servers) known to read images. */
const OPENAI_FAMILY = /gpt-4o|gpt-4\.1|gpt-4-turbo|gpt-4\.5|gpt-5|chatgpt-4o|\bo[134]\b|\bo[134]-(?!mini)|^o4-mini/;
/** Open models known to read images, as local servers and hosts name them. */
const OPEN_MODELS =
  /llava|bakllava|vision|[-.]vl\b|vl:|qwen2\.5vl|qwen3-vl|gemma-?3|minicpm-v|moondream|pixtral|llama-?4|mistral-small-?3/;
const CLAUDE = /claude-(?!2|instant)/;
const GEMINI = /gemini/;
/** Mistral's models that read images, as Mistral and OpenRouter (`mistralai/…`) name them. */
const MISTRAL = /pixtral|mistral-(?:small|medium)-(?!2312)|mistral-large-(?:latest|25\d\d|3)/;

/** By model name, per provider: the models of each known to read images. */
const KNOWN: Record<ProviderName, RegExp[]> = {
  openai: [OPENAI_FAMILY],
  codex: [OPENAI_FAMILY],
  copilot: [OPENAI_FAMILY, CLAUDE, GEMINI],
  anthropic: [CLAUDE],
  gemini: [GEMINI, OPEN_MODELS],
  groq: [OPEN_MODELS],
  mistral: [MISTRAL],
  openrouter: [OPENAI_FAMILY, CLAUDE, GEMINI, MISTRAL, OPEN_MODELS],
  ollama: [OPEN_MODELS],
  "openai-compat": [OPENAI_FAMILY, CLAUDE, GEMINI, OPEN_MODELS],
};

/** Whether `model` of `provider` is known to read images, from its name alone. */
export function knownToReadImages(provider: ProviderName, model: string): boolean {
  const name = model.toLowerCase();
  return KNOWN[provider].some((pattern) => pattern.test(name));
}

/**
 * Whether images may be sent to the provider's model: `MARVIN_VISION=on|off` when set (a model the patterns do not
 * know), else what the provider's server says (Ollama), else the model name.
 */
export async function readsImages(provider: LLMProvider, env: Env): Promise<boolean> {
  const forced = env.MARVIN_VISION?.trim().toLowerCase();
  if (forced === "on") return true;
  if (forced === "off") return false;
  if (provider.readsImages) return provider.readsImages();
  return knownToReadImages(provider.name, provider.model);
}
