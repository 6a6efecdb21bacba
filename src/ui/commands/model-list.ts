import type { ListedModel } from "../../providers/models/listed-model.js";
import { modelPrice } from "../../providers/pricing.js";
import { isCoveredByPlan } from "../../providers/registry.js";
import { formatTokens } from "../context-meter.js";

function priceText(provider: string, model: string): string {
  if (provider === "ollama") return "free (local)";
  if (isCoveredByPlan(provider)) return "covered by your plan";
  const price = modelPrice(provider, model);
  return price ? `$${price.input} in / $${price.output} out per M tokens` : "price unknown";
}

/**
 * One numbered line per model: its context window when the endpoint said, its price when Marvin knows it,
 * the current one marked with `*`. Names were cleaned of control characters when they were read.
 */
export function modelListLines(provider: string, models: readonly ListedModel[], current: string): string[] {
  const width = Math.min(40, Math.max(...models.map((model) => model.id.length)));
  const digits = String(models.length).length;
  return models.map((model, index) => {
    const marker = model.id === current ? "*" : " ";
    const context = model.contextWindow ? [`${formatTokens(model.contextWindow)} context`] : [];
    const facts = [...context, priceText(provider, model.id)].join(" · ");
    const label = model.id === current ? `${model.id} (current)` : model.id;
    return `  ${marker} ${String(index + 1).padStart(digits)}. ${label.padEnd(width + 10)}  ${facts}`;
  });
}
