import { createHash } from "node:crypto";
import type { CompletionsMessage } from "../chat-completions/wire-messages.js";
import type { ToolCall } from "../types.js";

/** Mistral takes back only tool-call ids of exactly nine letters and digits, as it writes them itself. */
const MISTRAL_ID = /^[A-Za-z0-9]{9}$/;
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** Nine letters and digits derived from `id`: the same id gives the same ones, on every request and after a resume. */
function nineCharacters(id: string, attempt: number): string {
  const digest = createHash("sha256").update(`${attempt}\u0000${id}`).digest();
  return [...digest.subarray(0, 9)].map((byte) => ALPHABET[byte % ALPHABET.length]).join("");
}

/**
 * The conversation with every tool-call id Mistral would refuse (one another provider made, before a `/model` switch
 * or in a resumed session) replaced by nine letters and digits derived from it: a call and its result keep matching,
 * and no two calls share an id. Each call is sent with only the fields Mistral takes.
 */
export function withMistralToolCallIds(messages: readonly CompletionsMessage[]): CompletionsMessage[] {
  const taken = new Set<string>();
  for (const message of messages) {
    if (message.role === "assistant") {
      for (const call of message.tool_calls ?? []) if (MISTRAL_ID.test(call.id)) taken.add(call.id);
    }
  }
  const replaced = new Map<string, string>();
  const idFor = (original: string): string => {
    if (MISTRAL_ID.test(original)) return original;
    let id = replaced.get(original);
    for (let attempt = 0; id === undefined; attempt += 1) {
      const candidate = nineCharacters(original, attempt);
      if (!taken.has(candidate)) id = candidate;
    }
    taken.add(id);
    replaced.set(original, id);
    return id;
  };
  const wireCall = (call: ToolCall): ToolCall => ({
    id: idFor(call.id),
    type: "function",
    function: { name: call.function.name, arguments: call.function.arguments },
  });
  return messages.map((message) => {
    if (message.role === "assistant" && message.tool_calls?.length) {
      return { ...message, tool_calls: message.tool_calls.map(wireCall) };
    }
    if (message.role === "tool") return { ...message, tool_call_id: idFor(message.tool_call_id) };
    return message;
  });
}
