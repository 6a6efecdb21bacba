import type { ProviderConfig } from "../descriptor.js";
import { getJson, type ListedModel, listedModel, objectsIn, presentModels } from "../models/listed-model.js";

/** `GET /v1/models` (up to 1000 at once): `{"data": [{"id", "display_name", "max_input_tokens"?…}], "has_more"}`. */
export async function listAnthropicModels(config: ProviderConfig): Promise<ListedModel[]> {
  const answer = await getJson(`${config.baseUrl}/v1/models?limit=1000`, {
    "x-api-key": config.apiKey ?? "",
    "anthropic-version": "2023-06-01",
  });
  return presentModels(objectsIn(answer, "data").map((model) => listedModel(model.id, model.max_input_tokens)));
}
