import type { CompletionChunk } from "./accumulator.js";

interface JsonCompletion {
  model?: string | null;
  choices?: Array<{
    message?: {
      content?: string | null;
      reasoning_content?: string | null;
      tool_calls?: Array<{ id?: string | null; function?: { name?: string | null; arguments?: string | null } | null }> | null;
    } | null;
    finish_reason?: string | null;
  }> | null;
  usage?: CompletionChunk["usage"];
}

/**
 * Some OpenAI-compatible servers ignore `stream: true` and answer with one JSON completion.
 * Returns it as the single equivalent stream chunk, or undefined when it is not a completion.
 */
export function completionAsChunk(body: unknown): CompletionChunk | undefined {
  const completion = body as JsonCompletion | null;
  const choice = completion?.choices?.[0];
  if (!choice?.message) return undefined;
  const { content, reasoning_content, tool_calls } = choice.message;
  return {
    model: completion!.model,
    choices: [
      {
        index: 0,
        delta: { content, reasoning_content, tool_calls: tool_calls?.map((call, index) => ({ index, id: call.id, function: call.function })) },
        finish_reason: choice.finish_reason ?? "stop",
      },
    ],
    usage: completion!.usage,
  };
}
