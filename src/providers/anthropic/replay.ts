import { z } from "zod";
import type { Message, ReplayData } from "../types.js";

const thinkingBlock = z.union([
  z.object({ type: z.literal("thinking"), thinking: z.string(), signature: z.string() }),
  z.object({ type: z.literal("redacted_thinking"), data: z.string() }),
]);

/** A thinking block exactly as Claude sent it: it goes back unchanged, signature and all. */
export type ThinkingBlock = z.infer<typeof thinkingBlock>;

/** Thinking blocks are bound to the model that wrote them: after a model switch they are left out. */
const replayItem = z.object({ model: z.string(), block: thinkingBlock });

/** What an answer's thinking blocks need to travel with its assistant message; undefined when it had none. */
export function replayOf(model: string, blocks: readonly ThinkingBlock[]): ReplayData | undefined {
  if (blocks.length === 0) return undefined;
  return { provider: "anthropic", items: blocks.map((block) => ({ model, block })) };
}

/**
 * The thinking blocks to send back with an assistant message to `model`: those Claude wrote for this answer on
 * the same model. Replay data of another provider, or not in the shape written here (a session file is outside
 * input), is ignored.
 */
export function replayedBlocks(message: Extract<Message, { role: "assistant" }>, model: string): ThinkingBlock[] {
  if (message.replay?.provider !== "anthropic") return [];
  return message.replay.items.flatMap((item) => {
    const parsed = replayItem.safeParse(item);
    return parsed.success && parsed.data.model === model ? [parsed.data.block] : [];
  });
}
