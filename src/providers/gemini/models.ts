import type { ProviderConfig } from "../descriptor.js";
import { getJson, type ListedModel, listedModel, objectsIn, presentModels } from "../models/listed-model.js";

/**
 * `models.list` (`GET /v1beta/models`): `{"models": [{"name": "models/…", "inputTokenLimit",
 * "supportedGenerationMethods"}], "nextPageToken"}`; only the models that can chat (generateContent).
 */
export async function listGeminiModels(config: ProviderConfig): Promise<ListedModel[]> {
  const answer = await getJson(`${config.baseUrl}/v1beta/models?pageSize=1000`, {
    "x-goog-api-key": config.apiKey ?? "",
  });
  return presentModels(
    objectsIn(answer, "models")
      .filter((model) => {
        const methods = model.supportedGenerationMethods;
        return !Array.isArray(methods) || methods.includes("generateContent");
      })
      .map((model) => listedModel(String(model.name ?? "").replace(/^models\//, ""), model.inputTokenLimit)),
  );
}
