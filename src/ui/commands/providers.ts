import { resolveProviderConfig } from "../../providers/config.js";
import { createProvider } from "../../providers/create.js";
import { PROVIDER_NAMES } from "../../providers/registry.js";
import { providerProblem as problemOf } from "../../providers/select.js";
import type { LLMProvider, ProviderName } from "../../providers/types.js";
import type { Env } from "../../shared/env.js";

export { parseProviderName } from "../../providers/registry.js";

export type ProviderFactory = (codingMode: boolean, model?: string) => Promise<LLMProvider>;

export interface ProviderFacts {
  env: Env;
  home: string;
}

/** The model a provider would use in this environment, given an explicit choice or not. */
export function modelFor(name: ProviderName, facts: ProviderFacts, model?: string): string {
  return resolveProviderConfig(name, {
    env: facts.env,
    home: facts.home,
    codingMode: false,
    nonInteractive: false,
    model,
  }).model;
}

/** Why `name` cannot be used here, or undefined when it can. */
export function providerProblem(name: ProviderName, facts: ProviderFacts): Promise<string | undefined> {
  return problemOf(name, facts.env, facts.home);
}

export function providerFactory(name: ProviderName, facts: ProviderFacts, model?: string): ProviderFactory {
  return (codingMode, otherModel) =>
    createProvider(
      resolveProviderConfig(name, {
        env: facts.env,
        home: facts.home,
        codingMode,
        model: otherModel ?? model,
        nonInteractive: false,
      }),
      facts.env,
    );
}

/** One line per provider: its default model here, or what it is missing. */
export async function providerChoices(facts: ProviderFacts): Promise<string[]> {
  return Promise.all(
    PROVIDER_NAMES.map(async (name) => {
      const problem = await providerProblem(name, facts);
      const status = problem ? `not configured: ${problem}` : `ready (default model ${modelFor(name, facts)})`;
      return `    ${name.padEnd(14)}${status}`;
    }),
  );
}
