import { z } from "zod";
import type { ProviderConfig } from "../descriptor.js";
import { interruptedFailure } from "../failures.js";
import { ProviderError } from "../provider-error.js";
import { RequestDeadline } from "../request-deadline.js";
import { ollamaHttpError } from "./errors.js";

/** What `POST /api/show` says about a model that matters to a chat request. */
export interface ModelFacts {
  /** The model's own largest window (`model_info["<architecture>.context_length"]`). */
  contextLength?: number;
  /** "tools", "thinking"…; undefined when the server is too old to say. */
  capabilities?: string[];
  /** The `think` values the model takes, when the server lists them (e.g. "low", "medium", "high"). */
  thinkingValues?: unknown[];
}

const showSchema = z.looseObject({
  model_info: z.record(z.string(), z.unknown()).optional(),
  capabilities: z.array(z.string()).optional(),
  thinking: z.looseObject({ values: z.array(z.unknown()).optional() }).optional(),
});

function contextLengthOf(modelInfo: Record<string, unknown> | undefined): number | undefined {
  if (!modelInfo) return undefined;
  const architecture = modelInfo["general.architecture"];
  const exact = typeof architecture === "string" ? modelInfo[`${architecture}.context_length`] : undefined;
  const length = exact ?? Object.entries(modelInfo).find(([key]) => key.endsWith(".context_length"))?.[1];
  return typeof length === "number" && length > 0 ? length : undefined;
}

async function askShow(config: ProviderConfig, signal: AbortSignal | undefined): Promise<ModelFacts | ProviderError> {
  const deadline = new RequestDeadline(config, signal);
  let answered = false;
  try {
    const response = await fetch(`${config.baseUrl}/api/show`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: config.model }),
      signal: deadline.signal,
    });
    answered = true;
    const text = await response.text();
    if (!response.ok) return ollamaHttpError(config, response.status, text, false);
    const parsed = showSchema.safeParse(JSON.parse(text));
    if (!parsed.success) return {};
    const { model_info, capabilities, thinking } = parsed.data;
    return { contextLength: contextLengthOf(model_info), capabilities, thinkingValues: thinking?.values };
  } catch (error) {
    return interruptedFailure(config, error, deadline, answered, false);
  } finally {
    deadline.dispose();
  }
}

const known = new Map<string, Promise<ModelFacts | ProviderError>>();

/**
 * The facts of the configured model, asked once per server and model while Marvin runs; or why they could not
 * be had. A failure (the model is not pulled, the server is down) is not remembered: the next request asks again.
 */
export function modelFacts(config: ProviderConfig, signal?: AbortSignal): Promise<ModelFacts | ProviderError> {
  const key = `${config.baseUrl} ${config.model}`;
  let facts = known.get(key);
  if (!facts) {
    facts = askShow(config, signal);
    known.set(key, facts);
    void facts.then((result) => {
      if (result instanceof ProviderError) known.delete(key);
    });
  }
  return facts;
}
