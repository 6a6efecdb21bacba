import type { ProviderDescriptor } from "../descriptor.js";

const COPILOT_UNAVAILABLE =
  "GitHub Copilot is not available: it needs the @github/copilot-sdk package and a GitHub sign-in " +
  "('gh auth login', or GH_TOKEN / GITHUB_TOKEN).";

/** GitHub Copilot through its SDK, which runs the tool loop itself (./index.ts). */
export const copilot: ProviderDescriptor<"copilot"> = {
  name: "copilot",
  icon: "🐙",
  defaults: { model: "claude-haiku-4.5", modelEnv: "MARVIN_CHAT_MODEL" },
  setupHint: "GitHub Copilot (the default): sign in with 'gh auth login' or set GH_TOKEN",
  autoDetect: { by: "default" },
  missingConfiguration: () => undefined,
  async probe(_config, facts) {
    const { isCopilotUsable } = await import("./usable.js");
    return (await isCopilotUsable(facts.env, facts.home)) ? undefined : COPILOT_UNAVAILABLE;
  },
  listModels: async (_config, env) => (await import("./models.js")).listCopilotModels(env),
  async create(config, env) {
    const { CopilotProvider } = await import("./index.js");
    return new CopilotProvider(config, { env });
  },
};
