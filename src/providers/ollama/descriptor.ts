import { hideUrlCredentials } from "../../shared/url-credentials.js";
import { normalizeBaseUrl } from "../base-url.js";
import type { ProviderDescriptor } from "../descriptor.js";

/** The server root of an Ollama URL: …/v1, its OpenAI-compatible API, is taken as the server it belongs to. */
function serverRoot(baseUrl: string): string {
  return normalizeBaseUrl(baseUrl).replace(/\/v1$/, "");
}

/** A quick HTTP probe of a local Ollama server (300 ms budget). */
export async function ollamaAnswers(baseUrl: string): Promise<boolean> {
  try {
    const response = await fetch(`${serverRoot(baseUrl)}/api/tags`, { signal: AbortSignal.timeout(300) });
    return response.ok;
  } catch {
    return false;
  }
}

/** A local Ollama server, through its own API (/api/chat). */
export const ollama: ProviderDescriptor<"ollama"> = {
  name: "ollama",
  icon: "🦙",
  defaults: {
    model: "qwen3-coder:30b",
    baseUrl: "http://localhost:11434",
    modelEnv: "OLLAMA_MODEL",
    urlEnv: "OLLAMA_URL",
  },
  baseUrl: serverRoot,
  setupHint: "LLM_PROVIDER=ollama with Ollama running (OLLAMA_URL, default http://localhost:11434)",
  autoDetect: { by: "probe", evidence: (config) => `Ollama answers at ${hideUrlCredentials(config.baseUrl ?? "")}` },
  missingConfiguration: () => undefined,
  async probe(config) {
    const baseUrl = config.baseUrl!;
    if (await ollamaAnswers(baseUrl)) return undefined;
    const shown = hideUrlCredentials(serverRoot(baseUrl));
    return `no Ollama server answers at ${shown}: start it ('ollama serve') or set OLLAMA_URL`;
  },
  listModels: async (config) => (await import("./models.js")).listOllamaModels(config),
  async create(config) {
    const { OllamaProvider } = await import("./adapter.js");
    return new OllamaProvider(config);
  },
};
