import type { ImageData } from "../shared/image.js";
import type { Message } from "./types.js";

const TOOL_IMAGES_NOTE = "The images the tool results above returned:";

/**
 * For APIs whose tool results carry text only (Chat Completions, Responses, Ollama): the images of a run of tool
 * results follow it as one user message, and the results keep their text.
 */
export function toolImagesAsUserMessages(messages: readonly Message[]): Message[] {
  const out: Message[] = [];
  let pending: ImageData[] = [];
  const flush = () => {
    if (pending.length > 0) out.push({ role: "user", content: TOOL_IMAGES_NOTE, images: pending });
    pending = [];
  };
  for (const message of messages) {
    if (message.role !== "tool") flush();
    if (message.role === "tool" && message.images?.length) {
      const { images, ...result } = message;
      pending.push(...images);
      out.push(result);
    } else {
      out.push(message);
    }
  }
  flush();
  return out;
}
