import { resolveProviderConfig } from "../../providers/config.js";
import { listProviderModels } from "../../providers/models/catalog.js";
import type { ListedModel } from "../../providers/models/listed-model.js";
import { PROVIDERS, providerDescriptor } from "../../providers/registry.js";
import { providerProblem } from "../../providers/select.js";
import type { ProviderName } from "../../providers/types.js";
import type { Env } from "../../shared/env.js";
import { errorMessage } from "../../shared/error-message.js";

/** The models an endpoint listed, or why it could not. */
type ModelsTest = { models: ListedModel[] } | { problem: string };

/** A provider that looks usable here, where its key or server was found, and what its models list said. */
export interface FoundProvider {
  provider: ProviderName;
  source: string;
  test: ModelsTest;
}

/** One cheap request: the provider's models list (none for a provider that has no list: its sign-in was checked). */
export async function testModels(provider: ProviderName, env: Env, home: string): Promise<ModelsTest> {
  if (!providerDescriptor(provider).listModels) return { models: [] };
  try {
    return { models: await listProviderModels(provider, env, home) };
  } catch (error) {
    return { problem: errorMessage(error) };
  }
}

/** A URL to show: without the user name and password a proxy URL may carry. */
export function shownUrl(url: string | undefined): string {
  if (!url) return "";
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    return parsed.href.replace(/\/$/, "");
  } catch {
    return "(an invalid URL)";
  }
}

/** Where a usable provider's key or server comes from, for the list. */
function sourceOf(provider: ProviderName, env: Env, home: string): string {
  const { keyEnv, keyFile, urlEnv } = providerDescriptor(provider).defaults;
  const config = resolveProviderConfig(provider, { env, home, codingMode: false, nonInteractive: false });
  const endpoint = urlEnv && env[urlEnv]?.trim() ? ` at ${shownUrl(config.baseUrl)}` : "";
  if (provider === "copilot") return "signed in to GitHub (gh, or GH_TOKEN)";
  if (provider === "ollama") return `Ollama answers at ${shownUrl(config.baseUrl)}`;
  if (keyEnv && env[keyEnv]?.trim()) return `key in ${keyEnv}${endpoint}`;
  if (keyFile && config.apiKey) return `key in ~/.ssh/${keyFile}${endpoint}`;
  return keyEnv ? `no key${endpoint}` : "signed in";
}

/** Every provider whose key, server or sign-in is here, each tested with its models list (all at once). */
export async function findProviders(env: Env, home: string): Promise<FoundProvider[]> {
  const found = await Promise.all(
    PROVIDERS.map(async ({ name }) => ((await providerProblem(name, env, home)) ? undefined : name)),
  );
  const usable = found.filter((name): name is ProviderName => name !== undefined);
  return Promise.all(
    usable.map(async (provider) => ({
      provider,
      source: sourceOf(provider, env, home),
      test: await testModels(provider, env, home),
    })),
  );
}
