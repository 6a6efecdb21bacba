import type { ProviderDefaults, ProviderDescriptor } from "../descriptor.js";
import { apiKeyProblem } from "../descriptor.js";
import { createChatCompletions } from "./create.js";

interface HostedProviderSpec<Name extends string> {
  name: Name;
  icon: string;
  defaults: ProviderDefaults & { keyEnv: string };
  setupHint: string;
  baseUrl?: ProviderDescriptor["baseUrl"];
  modelName?: ProviderDescriptor["modelName"];
  /** Builds the adapter; default: the OpenAI-compatible one. */
  create?: ProviderDescriptor["create"];
  /** Lists its models; default: the OpenAI-compatible `GET …/models`. */
  listModels?: ProviderDescriptor["listModels"];
}

/**
 * A hosted API that needs only an API key (OpenAI, Groq, Gemini, Anthropic): usable once the key is set, and
 * auto-detected by it. It speaks the OpenAI-compatible API unless it brings an adapter of its own.
 */
export function hostedProvider<Name extends string>(spec: HostedProviderSpec<Name>): ProviderDescriptor<Name> {
  return {
    create: createChatCompletions,
    listModels: async (config) => (await import("../models/openai-models.js")).listOpenAiModels(config),
    ...spec,
    autoDetect: { by: "setting", evidence: (config) => (config.apiKey ? `${spec.defaults.keyEnv} is set` : undefined) },
    missingConfiguration: apiKeyProblem,
  };
}
