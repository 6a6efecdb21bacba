import { listProviderModels } from "../../providers/models/catalog.js";
import type { ListedModel } from "../../providers/models/listed-model.js";
import { PROVIDER_NAMES } from "../../providers/registry.js";
import type { ProviderName } from "../../providers/types.js";
import type { LoadedSession } from "../../session/saved-sessions/session-store.js";
import { errorMessage } from "../../shared/error-message.js";
import type { CommandOutput } from "./command-output.js";
import type { CommandResult } from "./command-result.js";
import { restoreProvider } from "./conversations.js";
import { modelListLines } from "./model-list.js";
import { modelFor, parseProviderName, providerChoices, providerFactory, providerProblem } from "./providers.js";
import { sentence } from "./sentence.js";
import type { ActiveModel, CommandEnvironment } from "./types.js";

/** `model` and `pro`: which provider and model answer, and switching them. */
export class ModelCommands {
  private selected: ActiveModel;
  /** The models `/model` listed last, for `/model N`. */
  private listed: { provider: ProviderName; models: ListedModel[] } | undefined;

  constructor(
    private readonly environment: CommandEnvironment,
    private readonly output: CommandOutput,
  ) {
    this.selected = {
      provider: environment.providerName,
      model: modelFor(environment.providerName, environment, environment.model),
    };
  }

  /** Provider and model in use (the one actually answering while a `!pro` query runs). */
  get activeModel(): ActiveModel {
    const info = this.environment.session.providerInfo;
    return info ? { provider: info.name as ProviderName, model: info.model } : this.selected;
  }

  /** Switches to what a resumed conversation used, unless `--provider` chose; a notice when it could not. */
  async restore(stored: LoadedSession): Promise<string | undefined> {
    if (this.environment.providerFlag) return undefined;
    const restored = await restoreProvider(this.environment, stored, this.activeModel);
    this.selected = restored.active;
    return restored.notice;
  }

  async askCopilot(prompt: string): Promise<CommandResult> {
    const { output } = this;
    if (!prompt) return output.say("Usage: /pro PROMPT (asks GitHub Copilot once, whatever the current provider).");
    if (this.activeModel.provider === "copilot") return output.submit(prompt);
    const unavailable = await providerProblem("copilot", this.environment);
    const current = this.activeModel.provider;
    if (unavailable) return output.say(`${unavailable} The current provider (${current}) stays in use.`);
    output.say(`Asking GitHub Copilot (${modelFor("copilot", this.environment)}) for this one message.`);
    return output.submit(prompt, "copilot");
  }

  /** `/model`: the models the current endpoint has, numbered, then the other providers. */
  private async listModels(): Promise<CommandResult> {
    const current = this.activeModel;
    let models: string[];
    try {
      const listed = await listProviderModels(current.provider, this.environment.env, this.environment.home);
      this.listed = { provider: current.provider, models: listed };
      models = listed.length
        ? [`Models of ${current.provider}:`, ...modelListLines(current.provider, listed, current.model)]
        : [`${current.provider} lists no models.`];
    } catch (error) {
      models = [`Could not list the models of ${current.provider}: ${sentence(errorMessage(error))}`];
    }
    const choices = await providerChoices(this.environment);
    return this.output.say(
      [
        `Current: ${current.provider} · ${current.model}`,
        ...models,
        "Providers:",
        ...choices,
        "Switch with /model NAME or /model N (a model of the list), or /model PROVIDER [MODEL].",
      ].join("\n"),
    );
  }

  /** The models of `provider`, from the last list when it was of this provider; undefined when it cannot say. */
  private async modelsOf(provider: ProviderName): Promise<ListedModel[] | undefined> {
    if (this.listed?.provider === provider) return this.listed.models;
    try {
      const models = await listProviderModels(provider, this.environment.env, this.environment.home);
      this.listed = { provider, models };
      return models;
    } catch {
      return undefined;
    }
  }

  /** `/model WORD` with a word that names no provider: a model of the current provider, if its endpoint has it. */
  private async modelNamed(word: string): Promise<{ provider: ProviderName; model: string } | { problem: string }> {
    const { provider } = this.activeModel;
    const models = await this.modelsOf(provider);
    if (!models?.length || models.some((model) => model.id === word)) return { provider, model: word };
    return {
      problem:
        `'${word}' is neither a provider nor a model of ${provider}: /model lists its models. Providers: ` +
        `${PROVIDER_NAMES.join(", ")}.`,
    };
  }

  /** What `/model WORD` names: a provider, a number of the last list, else a model of the current provider. */
  private async chosen(word: string): Promise<{ provider: ProviderName; model?: string } | { problem: string }> {
    const name = parseProviderName(word);
    if (name) return { provider: name };
    if (!/^\d+$/.test(word)) return this.modelNamed(word);
    const model = this.listed?.models[Number(word) - 1];
    if (!this.listed) return { problem: "List the models first: /model shows them, numbered." };
    if (!model) return { problem: `There is no model ${word}: the list has ${this.listed.models.length}.` };
    return { provider: this.listed.provider, model: model.id };
  }

  async switchModel(args: string[]): Promise<CommandResult> {
    const { output } = this;
    const current = this.activeModel;
    if (args.length === 0) return this.listModels();
    const [rawName = "", second, ...extra] = args;
    const chosen =
      second === undefined ? await this.chosen(rawName) : { provider: parseProviderName(rawName), model: second };
    if ("problem" in chosen) return output.say(chosen.problem);
    const { provider: name, model } = chosen;
    if (!name)
      return output.say(
        `'${rawName}' is not a provider. Choose one of: ${PROVIDER_NAMES.join(", ")} (e.g. !model groq, or !model ` +
          `openai gpt-4o).`,
      );
    if (extra.length) return output.say("Usage: !model PROVIDER [MODEL] (model names have no spaces).");
    if (this.environment.session.busy)
      return output.say("Marvin is still answering: switch after the answer, or press Ctrl+C to stop it first.");
    const problem = await providerProblem(name, this.environment);
    if (problem)
      return output.say(
        `Cannot switch to ${name}: ${sentence(problem)} Still using ${current.provider} · ${current.model}.`,
      );
    try {
      const provider = await this.environment.session.useProvider(providerFactory(name, this.environment, model));
      this.selected = { provider: name, model: provider.model };
    } catch (error) {
      return output.say(
        `Could not switch to ${name}: ${errorMessage(error)} Still using ${current.provider} · ${current.model}.`,
      );
    }
    return output.changed(`Now using ${this.selected.provider} · ${this.selected.model}; the conversation continues.`);
  }
}
