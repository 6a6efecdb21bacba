import { z } from "zod";

/*
 * The parts of a chat-completions stream chunk Marvin reads. Vendors differ (see the recorded
 * streams in tests/conformance), so the schema is lenient: unknown fields pass, most fields may
 * be missing or null, and metadata Marvin can do without (model, usage) is dropped when it is
 * odd. What carries the answer (text, reasoning, tool calls, finish reason) must be well-formed.
 */

const optionalText = z.string().nullish();

const toolCallFragment = z.looseObject({
  /** Which call this fragment belongs to; absent on some servers that send each call whole. */
  index: z.number().int().nonnegative().nullish(),
  id: optionalText,
  function: z.looseObject({ name: optionalText, arguments: optionalText }).nullish(),
});

/**
 * Mistral's reasoning models (Magistral) stream content as parts: `text` parts are the answer, `thinking` parts
 * (each a list of text parts) the reasoning.
 */
const contentPart = z.looseObject({
  type: z.string(),
  text: optionalText,
  thinking: z.array(z.looseObject({ text: optionalText })).nullish(),
});

const choice = z.looseObject({
  index: z.number().nullish(),
  delta: z
    .looseObject({
      content: z
        .union([z.string(), z.array(contentPart)], {
          error: (issue) => `expected a string or a list of content parts, received ${typeof issue.input}`,
        })
        .nullish(),
      /** DeepSeek, Groq, vLLM. */
      reasoning_content: optionalText,
      /** OpenRouter, Ollama. */
      reasoning: optionalText,
      tool_calls: z.array(toolCallFragment).nullish(),
    })
    .nullish(),
  finish_reason: optionalText,
});

const usage = z.looseObject({
  prompt_tokens: z.number().nullish(),
  completion_tokens: z.number().nullish(),
  /** OpenAI, Groq, DeepSeek: the prompt tokens read from the provider's cache. */
  prompt_tokens_details: z.looseObject({ cached_tokens: z.number().nullish() }).nullish().catch(undefined),
  /** DeepSeek's own name for the same count. */
  prompt_cache_hit_tokens: z.number().nullish(),
  /** OpenRouter: what the request was billed in USD (with a key of the user's own, only OpenRouter's fee)… */
  cost: z.number().nullish().catch(undefined),
  is_byok: z.boolean().nullish().catch(undefined),
  /** …and what the model's provider billed that key. */
  cost_details: z.looseObject({ upstream_inference_cost: z.number().nullish() }).nullish().catch(undefined),
});

const completionChunkSchema = z.looseObject({
  model: z.string().nullish().catch(undefined),
  choices: z.array(choice).nullish(),
  usage: usage.nullish().catch(undefined),
});

export type CompletionChunk = z.infer<typeof completionChunkSchema>;
export type ToolCallFragment = z.infer<typeof toolCallFragment>;
export type DeltaContent = NonNullable<z.infer<typeof choice>["delta"]>["content"];

/** `choices[0].delta.content`, or "the chunk" for the chunk itself. */
function formatPath(path: readonly PropertyKey[]): string {
  const parts = path.map((key, at) => (typeof key === "number" ? `[${key}]` : `${at === 0 ? "" : "."}${String(key)}`));
  return parts.join("") || "the chunk";
}

/** The chunk, validated; or what is wrong with it, in one line naming the field and quoting the chunk. */
export function parseCompletionChunk(raw: unknown): { chunk: CompletionChunk } | { problem: string } {
  const parsed = completionChunkSchema.safeParse(raw);
  if (parsed.success) return { chunk: parsed.data };
  const issue = parsed.error.issues[0]!;
  const quoted = JSON.stringify(raw) ?? String(raw);
  const excerpt = quoted.length > 200 ? `${quoted.slice(0, 200)}…` : quoted;
  return { problem: `${formatPath(issue.path)}: ${issue.message.replace(/^Invalid input: /, "")} (${excerpt})` };
}
