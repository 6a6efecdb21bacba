import type { Env } from "../../shared/env.js";
import { type ListedModel, listedModel, presentModels } from "../models/listed-model.js";
import { CopilotRuntime } from "./runtime.js";

const LIST_STARTUP_TIMEOUT_MS = 20_000;

/** The models this Copilot sign-in may use, from the runtime's own list (`listModels`); the runtime stops after. */
export async function listCopilotModels(env: Env): Promise<ListedModel[]> {
  const runtime = new CopilotRuntime({ env, startupTimeoutMs: LIST_STARTUP_TIMEOUT_MS });
  try {
    const client = await runtime.started();
    const models = await client.listModels();
    return presentModels(
      models
        .filter((model) => model.policy?.state !== "disabled")
        .map((model) => listedModel(model.id, model.capabilities?.limits?.max_context_window_tokens)),
    );
  } finally {
    await runtime.stop();
  }
}
