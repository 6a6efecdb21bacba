import type { ProviderDefaults, ProviderDescriptor } from "../descriptor.js";
import { apiKeyProblem } from "../descriptor.js";
import { createChatCompletions } from "./create.js";

interface HostedProviderSpec<Name extends string> {
  name: Name;
  icon: string;
  defaults: ProviderDefaults & { keyEnv: string };
  setupHint: string;
}

/**
 * A hosted OpenAI-compatible API that needs only an API key (OpenAI, Groq, Gemini): usable
 * once the key is set, and auto-detected by it.
 */
export function hostedProvider<Name extends string>(spec: HostedProviderSpec<Name>): ProviderDescriptor<Name> {
  return {
    ...spec,
    autoDetect: { by: "setting", evidence: (config) => (config.apiKey ? `${spec.defaults.keyEnv} is set` : undefined) },
    missingConfiguration: apiKeyProblem,
    create: createChatCompletions,
  };
}
