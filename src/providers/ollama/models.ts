import type { ProviderConfig } from "../descriptor.js";
import { getJson, type ListedModel, listedModel, objectsIn, presentModels } from "../models/listed-model.js";

/** `GET /api/tags`: the models pulled into this Ollama, `{"models": [{"name", "model", "size", "details"}]}`. */
export async function listOllamaModels(config: ProviderConfig): Promise<ListedModel[]> {
  const answer = await getJson(`${config.baseUrl}/api/tags`, {});
  return presentModels(objectsIn(answer, "models").map((model) => listedModel(model.name ?? model.model, undefined)));
}
