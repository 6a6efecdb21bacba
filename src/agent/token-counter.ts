import type { Message } from "../providers/types.js";

type Encoder = { countTokens(text: string): number; encode(text: string): number[]; decode(tokens: number[]): string };

let encoder: Encoder | undefined;

/** Loads the o200k tokenizer on first use only: it is large and most turns never need it. */
async function loadEncoder(): Promise<Encoder> {
  encoder ??= (await import("gpt-tokenizer")) as unknown as Encoder;
  return encoder;
}

export async function countTextTokens(text: string): Promise<number> {
  return (await loadEncoder()).countTokens(text);
}

export async function truncateToTokens(text: string, maxTokens: number): Promise<string> {
  const tokenizer = await loadEncoder();
  const tokens = tokenizer.encode(text);
  return tokens.length <= maxTokens ? text : tokenizer.decode(tokens.slice(0, Math.max(0, maxTokens)));
}

/** Per-message framing overhead of chat formats (role markers, separators). */
const MESSAGE_OVERHEAD = 4;

export function messageText(message: Message): string {
  const content = message.content ?? "";
  if (message.role === "assistant" && message.tool_calls?.length) {
    return content + message.tool_calls.map((call) => `${call.function.name}${call.function.arguments}`).join("");
  }
  return content;
}

/**
 * Token count of a message list, exact where it matters and cheap where it does not:
 * byte-level BPE never yields more tokens than UTF-8 bytes, so while the byte total is
 * under `exactAbove` that bound is returned without loading the tokenizer.
 */
export class MessageTokenCounter {
  private readonly cache = new WeakMap<Message, number>();

  async count(messages: readonly Message[], exactAbove: number): Promise<number> {
    let bytes = 0;
    for (const message of messages) bytes += Buffer.byteLength(messageText(message)) + MESSAGE_OVERHEAD;
    if (bytes < exactAbove) return bytes;
    let total = 0;
    for (const message of messages) {
      let tokens = this.cache.get(message);
      if (tokens === undefined) {
        tokens = (await countTextTokens(messageText(message))) + MESSAGE_OVERHEAD;
        this.cache.set(message, tokens);
      }
      total += tokens;
    }
    return total;
  }
}
