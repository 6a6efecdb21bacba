import { type Env, missingConfiguration, resolveProviderConfig } from "./config.js";
import { PROVIDER_NAMES, type ProviderName } from "./types.js";

export type ProviderSelection = { provider: ProviderName; notice?: string } | { error: string };

export interface SelectionProbes {
  copilotUsable: () => Promise<boolean>;
  ollamaAnswers: (baseUrl: string) => Promise<boolean>;
}

export const HOW_TO_CONFIGURE = `No LLM provider is configured. Marvin can use any of these:
  copilot        GitHub Copilot (the default): sign in with 'gh auth login' or set GH_TOKEN
  openai         LLM_PROVIDER=openai with OPENAI_API_KEY
  groq           LLM_PROVIDER=groq with GROQ_API_KEY (or a key in ~/.ssh/GROQ_API_KEY)
  gemini         LLM_PROVIDER=gemini with GEMINI_API_KEY (or a key in ~/.ssh/GEMINI_API_KEY)
  ollama         LLM_PROVIDER=ollama with Ollama running (OLLAMA_URL, default http://localhost:11434)
  openai-compat  LLM_PROVIDER=openai-compat with OPENAI_COMPAT_URL and OPENAI_COMPAT_API_KEY
Pick one with --provider NAME or the LLM_PROVIDER variable, then run marvin again.`;

function parseName(value: string, source: string): ProviderName | { error: string } {
  const name = value.trim().toLowerCase() as ProviderName;
  if (PROVIDER_NAMES.includes(name)) return name;
  return { error: `${source} '${value}' is not a provider. Choose one of: ${PROVIDER_NAMES.join(", ")}.` };
}

/** A quick HTTP probe of a local Ollama server (300 ms budget). */
export async function ollamaAnswers(baseUrl: string): Promise<boolean> {
  try {
    const response = await fetch(`${baseUrl.replace(/\/v1$/, "")}/api/tags`, { signal: AbortSignal.timeout(300) });
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * Which provider to use: --provider, else LLM_PROVIDER, else Copilot when usable, else
 * the one provider the environment makes obvious (a key set, Ollama answering).
 */
export async function selectProvider(explicit: string | undefined, env: Env, home: string, probes: SelectionProbes): Promise<ProviderSelection> {
  const chosen = explicit ?? env.LLM_PROVIDER?.trim();
  if (chosen) {
    const name = parseName(chosen, explicit ? "--provider" : "LLM_PROVIDER");
    if (typeof name !== "string") return name;
    const problem = missingConfiguration(resolveProviderConfig(name, { env, home, codingMode: false, nonInteractive: false }), env);
    return problem ? { error: `${problem}.` } : { provider: name };
  }
  if (await probes.copilotUsable()) return { provider: "copilot" };

  const candidates: Array<{ name: ProviderName; because: string }> = [];
  for (const name of ["openai", "groq", "gemini", "openai-compat"] as const) {
    const config = resolveProviderConfig(name, { env, home, codingMode: false, nonInteractive: false });
    const keyed = name === "openai-compat" ? Boolean(config.apiKey || env.OPENAI_COMPAT_URL) : Boolean(config.apiKey);
    if (keyed) candidates.push({ name, because: name === "openai-compat" && !config.apiKey ? "OPENAI_COMPAT_URL is set" : `${config.keyHint?.split(" ")[0]} is set` });
  }
  const ollama = resolveProviderConfig("ollama", { env, home, codingMode: false, nonInteractive: false });
  if (await probes.ollamaAnswers(ollama.baseUrl!)) candidates.push({ name: "ollama", because: `Ollama answers at ${ollama.baseUrl}` });

  if (candidates.length === 1) {
    const [only] = candidates as [(typeof candidates)[number]];
    return { provider: only.name, notice: `LLM_PROVIDER is not set and Copilot is not available; using ${only.name} (${only.because}).` };
  }
  if (candidates.length > 1) {
    return { error: `LLM_PROVIDER is not set, Copilot is not available, and several providers are configured (${candidates.map((c) => c.name).join(", ")}). Choose one with --provider NAME or LLM_PROVIDER.` };
  }
  return { error: HOW_TO_CONFIGURE };
}
