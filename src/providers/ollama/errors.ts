import type { ProviderConfig } from "../descriptor.js";
import { httpFailure } from "../failures.js";
import { ProviderError } from "../provider-error.js";

/** The `error` of Ollama's `{"error": "…"}` body, else the text itself. */
function errorText(body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === "object" && parsed !== null && typeof (parsed as { error?: unknown }).error === "string") {
      return (parsed as { error: string }).error;
    }
  } catch {
    // not JSON: the text says it
  }
  return body.trim().slice(0, 300) || "no details";
}

/** Ollama's words for a model it does not have ("model 'x' not found, try pulling it first"). */
function isMissingModel(status: number, message: string): boolean {
  return status === 404 || /model .*not found/i.test(message);
}

/** An Ollama failure in words that say what to do: pull a missing model, pick one with tools. */
export function ollamaFailure(
  config: ProviderConfig,
  status: number | undefined,
  message: string,
  partialOutput: boolean,
): ProviderError {
  const provider = config.name;
  if (isMissingModel(status ?? 0, message)) {
    return new ProviderError(
      `Ollama at ${config.baseUrl} has no model '${config.model}' (${message}). Run \`ollama pull ${config.model}\`, ` +
        "or set OLLAMA_MODEL to one that `ollama list` shows.",
      { provider, kind: "bad_request", status, partialOutput },
    );
  }
  if (/does not support tools/i.test(message)) {
    return new ProviderError(
      `Ollama model '${config.model}' cannot call tools (${message}). Choose a model with tool support ` +
        "(OLLAMA_MODEL), e.g. qwen3-coder or llama3.1.",
      { provider, kind: "bad_request", status, partialOutput },
    );
  }
  if (status === undefined) {
    return new ProviderError(`Ollama reported an error mid-answer: ${message}`, {
      provider,
      kind: "server",
      partialOutput,
    });
  }
  return httpFailure(config, { status, message }, partialOutput);
}

/** An HTTP error answer of Ollama, from its status and body text. */
export function ollamaHttpError(
  config: ProviderConfig,
  status: number,
  body: string,
  partialOutput: boolean,
): ProviderError {
  return ollamaFailure(config, status, errorText(body), partialOutput);
}
