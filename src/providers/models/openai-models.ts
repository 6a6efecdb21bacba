import type { ProviderConfig } from "../descriptor.js";
import { getJson, type ListedModel, listedModel, objectsIn, presentModels } from "./listed-model.js";

/**
 * `GET {base}/models` of an OpenAI-compatible API: `{"object": "list", "data": [{"id": …}]}`. Groq adds
 * `context_window`, OpenRouter `context_length`.
 */
export async function listOpenAiModels(config: ProviderConfig): Promise<ListedModel[]> {
  const headers: Record<string, string> = config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {};
  const answer = await getJson(`${config.baseUrl}/models`, headers);
  return presentModels(
    objectsIn(answer, "data").map((model) => listedModel(model.id, model.context_window ?? model.context_length)),
  );
}
