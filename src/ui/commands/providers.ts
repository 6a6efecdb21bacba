import { type Env, missingConfiguration, resolveProviderConfig } from "../../providers/config.js";
import { createProvider } from "../../providers/create.js";
import { ollamaAnswers } from "../../providers/select.js";
import { PROVIDER_NAMES, type LLMProvider, type ProviderName } from "../../providers/types.js";

export type ProviderFactory = (codingMode: boolean) => Promise<LLMProvider>;

export interface ProviderFacts {
  env: Env;
  home: string;
}

export async function copilotUsable(facts: ProviderFacts): Promise<boolean> {
  const { isCopilotUsable } = await import("../../providers/copilot/index.js");
  return isCopilotUsable(facts.env, facts.home);
}

export const COPILOT_UNAVAILABLE =
  "GitHub Copilot is not available: it needs the @github/copilot-sdk package and a GitHub sign-in ('gh auth login', or GH_TOKEN / GITHUB_TOKEN).";

/** The model a provider would use in this environment, given an explicit choice or not. */
export function modelFor(name: ProviderName, facts: ProviderFacts, model?: string): string {
  return resolveProviderConfig(name, { env: facts.env, home: facts.home, codingMode: false, nonInteractive: false, model }).model;
}

/** Why `name` cannot be used here, or undefined when it can. */
export async function providerProblem(name: ProviderName, facts: ProviderFacts): Promise<string | undefined> {
  if (name === "copilot") return (await copilotUsable(facts)) ? undefined : COPILOT_UNAVAILABLE;
  const config = resolveProviderConfig(name, { env: facts.env, home: facts.home, codingMode: false, nonInteractive: false });
  if (name === "ollama" && !(await ollamaAnswers(config.baseUrl!))) return `no Ollama server answers at ${config.baseUrl!.replace(/\/v1$/, "")}: start it ('ollama serve') or set OLLAMA_URL`;
  return missingConfiguration(config, facts.env);
}

export function providerFactory(name: ProviderName, facts: ProviderFacts, model?: string): ProviderFactory {
  return (codingMode) => createProvider(resolveProviderConfig(name, { env: facts.env, home: facts.home, codingMode, model, nonInteractive: false }), facts.env);
}

export function parseProviderName(value: string): ProviderName | undefined {
  const name = value.toLowerCase();
  return (PROVIDER_NAMES as readonly string[]).includes(name) ? (name as ProviderName) : undefined;
}

/** One line per provider: its default model here, or what it is missing. */
export async function providerChoices(facts: ProviderFacts): Promise<string[]> {
  return Promise.all(
    PROVIDER_NAMES.map(async (name) => {
      const problem = await providerProblem(name, facts);
      return `    ${name.padEnd(14)}${problem ? `not configured: ${problem}` : `ready (default model ${modelFor(name, facts)})`}`;
    }),
  );
}
