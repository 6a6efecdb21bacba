import { z } from "zod";
import type { Message, ProviderName, ReplayData } from "../types.js";

/** The providers that speak the Responses API; each reads back only the reasoning it kept itself. */
export type ResponsesProviderName = Extract<ProviderName, "openai" | "codex">;

/**
 * An encrypted reasoning item as it goes back in `input`: with `store: false` OpenAI keeps nothing, so the model's
 * reasoning reaches the next request of a tool loop only this way. Its `id` stays out: an id names an item stored
 * on OpenAI's side, and none is.
 */
const reasoningItem = z.object({
  type: z.literal("reasoning"),
  summary: z.array(z.object({ type: z.literal("summary_text"), text: z.string() })),
  encrypted_content: z.string(),
});

export type ReasoningItem = z.infer<typeof reasoningItem>;

/** Reasoning is bound to the model that wrote it: after a model switch it is left out. */
const replayItem = z.object({ model: z.string(), item: reasoningItem });

/** What an answer's reasoning items need to travel with its assistant message; undefined when it had none. */
export function replayOf(
  provider: ResponsesProviderName,
  model: string,
  items: readonly ReasoningItem[],
): ReplayData | undefined {
  if (items.length === 0) return undefined;
  return { provider, items: items.map((item) => ({ model, item })) };
}

/**
 * The reasoning items to send back with an assistant message to `model`: those this provider kept for the answer on
 * the same model (ChatGPT's Codex backend and OpenAI's API each read only their own). Replay data of another
 * provider, or not in the shape written here (a session file is outside input), is ignored.
 */
export function replayedItems(
  provider: ResponsesProviderName,
  message: Extract<Message, { role: "assistant" }>,
  model: string,
): ReasoningItem[] {
  if (message.replay?.provider !== provider) return [];
  return message.replay.items.flatMap((item) => {
    const parsed = replayItem.safeParse(item);
    return parsed.success && parsed.data.model === model ? [parsed.data.item] : [];
  });
}
