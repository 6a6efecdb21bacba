import type { Env } from "../shared/env.js";
import { resolveProviderConfig } from "./config.js";
import { PROVIDER_NAMES, PROVIDERS, parseProviderName, providerDescriptor } from "./registry.js";
import type { ProviderName } from "./types.js";

type ProviderSelection = { provider: ProviderName; notice?: string } | { error: string };

export const HOW_TO_CONFIGURE = [
  "No LLM provider is configured. Marvin can use any of these:",
  ...PROVIDERS.map((provider) => `  ${provider.name.padEnd(15)}${provider.setupHint}`),
  "Run 'marvin setup' to choose one: it finds the keys, servers and sign-ins you have and saves your choice.",
  "Or pick one with --provider NAME or the LLM_PROVIDER variable, then run marvin again.",
].join("\n");

function parseName(value: string, source: string): ProviderName | { error: string } {
  const name = parseProviderName(value);
  return name ?? { error: `${source} '${value}' is not a provider. Choose one of: ${PROVIDER_NAMES.join(", ")}.` };
}

function plainConfig(name: ProviderName, env: Env, home: string) {
  return resolveProviderConfig(name, { env, home, codingMode: false, nonInteractive: false });
}

/** Why `name` cannot be used here (its probe first: a sign-in, a server answering), or undefined when it can. */
export async function providerProblem(name: ProviderName, env: Env, home: string): Promise<string | undefined> {
  const descriptor = providerDescriptor(name);
  const config = plainConfig(name, env, home);
  return (await descriptor.probe?.(config, { env, home })) ?? descriptor.missingConfiguration(config, env);
}

/**
 * Which provider to use: --provider, else LLM_PROVIDER, else the default provider (Copilot)
 * when usable, else the one provider the environment makes obvious (a key set, a local server
 * answering). See AutoDetection in ./descriptor.ts.
 */
export async function selectProvider(explicit: string | undefined, env: Env, home: string): Promise<ProviderSelection> {
  const chosen = explicit ?? env.LLM_PROVIDER?.trim();
  if (chosen) {
    const name = parseName(chosen, explicit ? "--provider" : "LLM_PROVIDER");
    if (typeof name !== "string") return name;
    const problem = providerDescriptor(name).missingConfiguration(plainConfig(name, env, home), env);
    return problem ? { error: `${problem}.` } : { provider: name };
  }
  for (const provider of PROVIDERS) {
    if (provider.autoDetect.by !== "default") continue;
    if (!(await providerProblem(provider.name, env, home))) return { provider: provider.name };
  }

  // Settings first (no I/O), then servers that need a probe.
  const candidates: Array<{ name: ProviderName; because: string }> = [];
  for (const provider of PROVIDERS) {
    const detection = provider.autoDetect;
    if (detection.by !== "setting") continue;
    const because = detection.evidence(plainConfig(provider.name, env, home), env);
    if (because) candidates.push({ name: provider.name, because });
  }
  for (const provider of PROVIDERS) {
    const detection = provider.autoDetect;
    if (detection.by !== "probe" || (await providerProblem(provider.name, env, home))) continue;
    candidates.push({ name: provider.name, because: detection.evidence(plainConfig(provider.name, env, home)) });
  }

  if (candidates.length === 1) {
    const [only] = candidates as [(typeof candidates)[number]];
    return {
      provider: only.name,
      notice: `LLM_PROVIDER is not set and Copilot is not available; using ${only.name} (${only.because}).`,
    };
  }
  if (candidates.length > 1) {
    return {
      error:
        `LLM_PROVIDER is not set, Copilot is not available, and several providers are configured ` +
        `(${candidates.map((c) => c.name).join(", ")}). Choose one with --provider NAME or LLM_PROVIDER.`,
    };
  }
  return { error: HOW_TO_CONFIGURE };
}
