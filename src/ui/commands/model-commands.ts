import { PROVIDER_NAMES } from "../../providers/registry.js";
import type { ProviderName } from "../../providers/types.js";
import type { LoadedSession } from "../../session/saved-sessions/session-store.js";
import { errorMessage } from "../../shared/error-message.js";
import type { CommandOutput } from "./command-output.js";
import type { CommandResult } from "./command-result.js";
import { restoreProvider } from "./conversations.js";
import { modelFor, parseProviderName, providerChoices, providerFactory, providerProblem } from "./providers.js";
import { sentence } from "./sentence.js";
import type { ActiveModel, CommandEnvironment } from "./types.js";

/** `model` and `pro`: which provider and model answer, and switching them. */
export class ModelCommands {
  private selected: ActiveModel;

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

  async switchModel(args: string[]): Promise<CommandResult> {
    const { output } = this;
    const current = this.activeModel;
    if (args.length === 0) {
      const choices = await providerChoices(this.environment);
      return output.say(
        [
          `Current: ${current.provider} · ${current.model}`,
          "Providers:",
          ...choices,
          "Switch with /model PROVIDER [MODEL].",
        ].join("\n"),
      );
    }
    const [rawName = "", model, ...extra] = args;
    const name = parseProviderName(rawName);
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
