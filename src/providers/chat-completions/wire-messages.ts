import { imageDataUrl } from "../../shared/image.js";
import { toolImagesAsUserMessages } from "../tool-images.js";
import { messageText } from "../transcript.js";
import type { Message } from "../types.js";

type ContentPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };

/** A message as Chat Completions takes it: a user message with images has a list of parts. */
export type CompletionsMessage =
  | Exclude<Message, { role: "user" } | { role: "tool" }>
  | { role: "user"; content: string | ContentPart[] }
  | { role: "tool"; tool_call_id: string; content: string };

function wireMessage(message: Message): CompletionsMessage {
  switch (message.role) {
    case "user": {
      const text = messageText(message);
      if (!message.images?.length) return { role: "user", content: text };
      const images = message.images.map(
        (image): ContentPart => ({ type: "image_url", image_url: { url: imageDataUrl(image) } }),
      );
      return { role: "user", content: [{ type: "text", text }, ...images] };
    }
    case "assistant": {
      if (!message.replay) return message;
      const { replay: _, ...answer } = message;
      return answer;
    }
    case "tool":
      return { role: "tool", tool_call_id: message.tool_call_id, content: message.content };
    default:
      return message;
  }
}

/**
 * The messages as Chat Completions takes them: a user message's context note goes in front of its words, its images
 * follow as `image_url` parts with a `data:` URL, a tool result's images follow the results as a user message, and
 * the replay data another provider left on an answer (Claude's thinking signatures…) stays out.
 */
export function completionsMessages(messages: readonly Message[]): CompletionsMessage[] {
  return toolImagesAsUserMessages(messages).map(wireMessage);
}
