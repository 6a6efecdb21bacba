/**
 * Parameter schemas that take what models commonly send instead of refusing it, while the JSON
 * Schema the model is shown stays the plain one (an enum of the canonical values, a maximum):
 *
 * ```ts
 * z.object({
 *   mode: enumWithSynonyms(z.enum(["driving", "cycling"]), { bicycle: "cycling", car: "driving" }),
 *   max_results: resultLimit(20, 5),
 * })
 * ```
 *
 * Numbers sent as text, text sent as a number and enum values in another case are repaired for
 * every tool by the registry (`coerceArguments` in json-schema.ts).
 */
import { z } from "zod";

/** Result counts whose maximum is what the tool returns at most, rather than a wrong value. */
const resultLimits = z.registry<{ maximum: number }>();

/**
 * How many results to return, 1 to `maximum`, `fallback` when not given. A larger count is no
 * error: the registry lowers it to `maximum` and the answer says so (`lowerResultLimits`).
 */
export function resultLimit(maximum: number, fallback: number, description?: string) {
  const limit = z.number().int().min(1).max(maximum).default(fallback);
  return (description ? limit.describe(description) : limit).register(resultLimits, { maximum });
}

interface LoweredLimits {
  args: Record<string, unknown>;
  /** One line per lowered count: "Note: max_results 50 was lowered to 20, the most web_search returns." */
  notes: string[];
}

/** `args` with every result count above its maximum lowered to it, and a note for each. */
export function lowerResultLimits(tool: string, parameters: z.ZodObject, args: Record<string, unknown>): LoweredLimits {
  const lowered = { ...args };
  const notes: string[] = [];
  for (const [key, schema] of Object.entries(parameters.shape)) {
    const maximum = resultLimits.get(schema as z.ZodType)?.maximum;
    const value = args[key];
    if (maximum === undefined || typeof value !== "number" || !(value > maximum)) continue;
    lowered[key] = maximum;
    notes.push(`Note: ${key} ${value} was lowered to ${maximum}, the most ${tool} returns.`);
  }
  return { args: lowered, notes };
}

/**
 * An enum that also takes other words for its values (`{ bicycle: "cycling" }`, matched in any
 * case); the model is shown the canonical values only.
 */
export function enumWithSynonyms<Values extends z.ZodEnum>(values: Values, synonyms: Record<string, z.output<Values>>) {
  const canonical = (value: unknown) => {
    const word = typeof value === "string" ? value.trim().toLowerCase() : undefined;
    return word !== undefined && Object.hasOwn(synonyms, word) ? synonyms[word] : value;
  };
  return z.preprocess(canonical, values);
}
