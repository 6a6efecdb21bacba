import { resolveProviderConfig } from "../../providers/config.js";
import { PROVIDERS, providerDescriptor } from "../../providers/registry.js";
import { withSavedChoice } from "../../providers/saved-choice.js";
import type { ProviderName } from "../../providers/types.js";
import type { Env } from "../../shared/env.js";
import { loadProviderChoice, type ProviderChoice, saveProviderChoice } from "../../state/provider-choice.js";
import { modelListLines } from "../../ui/commands/model-list.js";
import { type FoundProvider, findProviders, shownUrl } from "./found-providers.js";
import { offerText, type ReadyProvider, setUpProvider } from "./other-providers.js";
import type { SetupTerminal } from "./terminal.js";

interface SetupContext {
  env: Env;
  home: string;
  terminal: SetupTerminal;
}

type MenuEntry = { found: FoundProvider & { test: { models: ReadyProvider["models"] } } } | { offer: ProviderName };

function works(found: FoundProvider): found is FoundProvider & { test: { models: ReadyProvider["models"] } } {
  return "models" in found.test;
}

function foundLine(found: FoundProvider): string {
  const result =
    "problem" in found.test
      ? `does not work: ${found.test.problem}`
      : found.test.models.length
        ? `works, ${found.test.models.length} models`
        : "works";
  return `${found.provider.padEnd(15)}${found.source} — ${result}`;
}

/** The providers found working first, then every other provider to set up from nothing. */
function menu(found: FoundProvider[]): MenuEntry[] {
  const working = found.filter(works);
  const ready = new Set(working.map((entry) => entry.provider));
  return [
    ...working.map((entry) => ({ found: entry })),
    ...PROVIDERS.filter(({ name }) => !ready.has(name)).map(({ name }) => ({ offer: name })),
  ];
}

async function chooseProvider(context: SetupContext): Promise<ReadyProvider> {
  const { terminal } = context;
  terminal.say("Looking for the providers you already have (keys, a local Ollama, a Copilot sign-in)…");
  const found = await findProviders(context.env, context.home);
  for (;;) {
    const entries = menu(found);
    const broken = found.filter((entry) => !works(entry));
    terminal.say(found.length ? "Found:" : "Found no key, local server or Copilot sign-in.");
    for (const entry of broken) terminal.say(`    ${foundLine(entry)}`);
    entries.forEach((entry, index) => {
      const text = "found" in entry ? foundLine(entry.found) : `${entry.offer.padEnd(15)}${offerText(entry.offer)}`;
      if ("offer" in entry && index === entries.findIndex((other) => "offer" in other)) terminal.say("Or set one up:");
      terminal.say(`  ${String(index + 1).padStart(2)}. ${text}`);
    });
    const picked = entries[(await terminal.choose("Which one", entries.length, 1)) - 1]!;
    if ("found" in picked)
      return { provider: picked.found.provider, env: context.env, models: picked.found.test.models };
    const ready = await setUpProvider(picked.offer, context);
    if (ready) return ready;
  }
}

async function chooseModel({ provider, env, models }: ReadyProvider, context: SetupContext): Promise<string> {
  const configured = resolveProviderConfig(provider, {
    env,
    home: context.home,
    codingMode: false,
    nonInteractive: false,
  });
  if (models.length === 0) return configured.model;
  const current = models.some((model) => model.id === configured.model) ? configured.model : models[0]!.id;
  context.terminal.say(`Models of ${provider}:`);
  for (const line of modelListLines(provider, models, current)) context.terminal.say(line);
  const fallback = models.findIndex((model) => model.id === current) + 1;
  return models[(await context.terminal.choose("Which model", models.length, fallback)) - 1]!.id;
}

/**
 * `marvin setup`: finds what works here, lets the person pick (or set up a provider from nothing), and saves the
 * provider, model and endpoint in the active profile. Returns the environment the next start would have.
 */
export async function runSetup(context: SetupContext): Promise<Env> {
  const ready = await chooseProvider(context);
  const model = await chooseModel(ready, context);
  const { urlEnv } = providerDescriptor(ready.provider).defaults;
  const endpoint = urlEnv ? ready.env[urlEnv]?.trim() : undefined;
  const choice: ProviderChoice = { provider: ready.provider, model, ...(endpoint ? { baseUrl: endpoint } : {}) };
  const { path } = await loadProviderChoice(context.home);
  await saveProviderChoice(path, choice);
  context.terminal.say(
    `Saved in ${path}: ${ready.provider} · ${model}${endpoint ? ` at ${shownUrl(endpoint)}` : ""}. ` +
      "From now on, plain 'marvin' starts with it (LLM_PROVIDER and --provider still choose another).",
  );
  return withSavedChoice(context.env, choice);
}
