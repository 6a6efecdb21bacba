import { argumentsObject } from "../tool-arguments.js";
import { toolImagesAsUserMessages } from "../tool-images.js";
import { messageText } from "../transcript.js";
import type { Message } from "../types.js";

/** One message of Ollama's `/api/chat`: tool-call arguments are objects, and a tool result names its tool. */
interface OllamaMessage {
  role: Message["role"];
  content: string;
  tool_calls?: Array<{ function: { name: string; arguments: Record<string, unknown> } }>;
  tool_name?: string;
  /** Base64 images, for a model that reads them. */
  images?: string[];
}

/** Marvin's messages as Ollama's: images go base64 on the message, a tool result's on a user message after it. */
export function toOllamaMessages(messages: readonly Message[]): OllamaMessage[] {
  const names = new Map<string, string>();
  return toolImagesAsUserMessages(messages).map((message): OllamaMessage => {
    switch (message.role) {
      case "system":
        return { role: "system", content: message.content };
      case "user":
        return {
          role: "user",
          content: messageText(message),
          ...(message.images?.length ? { images: message.images.map((image) => image.data) } : {}),
        };
      case "assistant": {
        const calls = message.tool_calls ?? [];
        for (const call of calls) names.set(call.id, call.function.name);
        return {
          role: "assistant",
          content: message.content ?? "",
          ...(calls.length > 0
            ? {
                tool_calls: calls.map((call) => ({
                  function: { name: call.function.name, arguments: argumentsObject(call) },
                })),
              }
            : {}),
        };
      }
      default: {
        const name = names.get(message.tool_call_id);
        return { role: "tool", content: message.content, ...(name ? { tool_name: name } : {}) };
      }
    }
  });
}
