import { anthropic } from "./anthropic/descriptor.js";
import { codex } from "./codex/descriptor.js";
import { copilot } from "./copilot/descriptor.js";
import type { ProviderDescriptor } from "./descriptor.js";
import { gemini } from "./gemini/descriptor.js";
import { groq } from "./groq/descriptor.js";
import { mistral } from "./mistral/descriptor.js";
import { ollama } from "./ollama/descriptor.js";
import { openai } from "./openai/descriptor.js";
import { openaiCompat } from "./openai-compat/descriptor.js";
import { openrouter } from "./openrouter/descriptor.js";
import type { ProviderName } from "./types.js";

/**
 * Every provider Marvin can use, in the order it lists them, under its name: a name of ProviderName without a
 * descriptor here, or a descriptor of another name, does not compile. A new provider is one folder with a
 * descriptor (see ./descriptor.ts), its name in ProviderName and one line here.
 */
const DESCRIPTORS: { readonly [Name in ProviderName]: ProviderDescriptor<Name> } = {
  copilot,
  anthropic,
  gemini,
  groq,
  mistral,
  openai,
  openrouter,
  codex,
  ollama,
  "openai-compat": openaiCompat,
};

export const PROVIDERS: readonly ProviderDescriptor<ProviderName>[] = Object.values(DESCRIPTORS);

export const PROVIDER_NAMES: readonly ProviderName[] = PROVIDERS.map((provider) => provider.name);

const BY_NAME = new Map<string, ProviderDescriptor<ProviderName>>(
  PROVIDERS.map((provider) => [provider.name, provider]),
);

export function providerDescriptor(name: ProviderName): ProviderDescriptor<ProviderName> {
  return DESCRIPTORS[name];
}

/** The provider a user typed (any case, surrounding spaces ignored), or undefined. */
export function parseProviderName(value: string): ProviderName | undefined {
  return BY_NAME.get(value.trim().toLowerCase())?.name;
}

/** The status-bar icon of a provider (a robot for a name Marvin does not know). */
export function providerIcon(name: string): string {
  return BY_NAME.get(name)?.icon ?? "🤖";
}

/** Whether the provider's subscription covers what it uses (see ProviderDescriptor.coveredByPlan). */
export function isCoveredByPlan(name: string): boolean {
  return BY_NAME.get(name)?.coveredByPlan === true;
}
